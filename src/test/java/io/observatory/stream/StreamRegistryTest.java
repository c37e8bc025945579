package io.observatory.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class StreamRegistryTest {

    @Test
    void endsEachOpenStreamOnceAndRefusesStreamsOpenedAfter() throws Exception {
        StreamRegistry<String> registry = new StreamRegistry<>("test-delivery", 1);
        assertThat(registry.add("a")).isTrue();
        assertThat(registry.add("b")).isTrue();
        registry.remove("b");

        List<String> ended = new ArrayList<>();
        registry.endAll(ended::add);
        registry.endAll(ended::add);

        assertThat(ended).containsExactly("a");
        assertThat(registry.add("c")).isFalse();
        assertThat(registry.size()).isZero();
        registry.stop(Duration.ofSeconds(1));
    }

    @Test
    void deliversOnNamedThreadsUntilStopped() throws Exception {
        StreamRegistry<String> registry = new StreamRegistry<>("test-delivery", 2);
        CompletableFuture<String> thread = new CompletableFuture<>();
        registry.delivery().execute(() -> thread.complete(Thread.currentThread().getName()));

        assertThat(thread.get()).matches("test-delivery-[12]");
        registry.stop(Duration.ofSeconds(1));
    }
}
