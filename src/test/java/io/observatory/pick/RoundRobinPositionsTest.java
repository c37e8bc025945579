package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RoundRobinPositionsTest {

    private final RoundRobinPositions positions = new RoundRobinPositions();

    /** Calls {@code next} once per size in {@code sizes} and returns the positions, both space-separated. */
    private String run(String key, String sizes) {
        List<String> picked = new ArrayList<>();
        for (String size : sizes.split(" ")) {
            picked.add(String.valueOf(positions.next(key, Integer.parseInt(size))));
        }
        return String.join(" ", picked);
    }

    @ParameterizedTest(name = "sizes {0} -> positions {1}")
    @CsvSource({
        "1 1 1,         0 0 0",
        "3 3 3 3 3,     0 1 2 0 1",
        // the candidate count changes: the stored position is taken modulo the new count
        "3 3 2 2,       0 1 0 1",
        "3 3 3 2 2,     0 1 2 0 1",
        "2 5 5 5,       0 1 2 3",
        "3 3 1 3,       0 1 0 0", // a single candidate resets the turn
    })
    void nextWhenCalledRepeatedlyThenPositionsInTurn(String sizes, String expected) {
        assertThat(run("proxy_", sizes)).isEqualTo(expected);
    }

    @Test
    void nextWhenKeysDifferThenPositionsIndependent() {
        assertThat(run("proxy_", "3 3")).isEqualTo("0 1");
        assertThat(run("direct_", "3")).isEqualTo("0");
        assertThat(run("proxy_", "3")).isEqualTo("2");
    }

    @Test
    void nextWhenMoreThanMaxKeysThenLeastRecentlyUsedKeyStartsOver() {
        IntStream.range(0, RoundRobinPositions.MAX_KEYS).forEach(key -> positions.next("key" + key, 3));
        positions.next("key0", 3); // key0 now used most recently, key1 least recently

        positions.next("one-too-many", 3);

        assertThat(positions.next("key1", 3)).as("forgotten, starts over").isZero();
        assertThat(positions.next("key0", 3)).as("kept").isEqualTo(2);
    }

    @Test
    void nextWhenCalledConcurrentlyForOneKeyThenEveryPositionOnce() throws Exception {
        int threads = 8;
        int callsPerThread = 2_000;
        int size = threads * callsPerThread;
        CountDownLatch start = new CountDownLatch(1);
        Callable<List<Integer>> caller = () -> {
            start.await();
            List<Integer> picked = new ArrayList<>();
            for (int call = 0; call < callsPerThread; call++) {
                picked.add(positions.next("proxy_", size));
            }
            return picked;
        };
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                results.add(executor.submit(caller));
            }
            start.countDown();
            List<Integer> all = new ArrayList<>();
            for (Future<List<Integer>> result : results) {
                all.addAll(result.get());
            }

            assertThat(all)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.range(0, size).boxed().toList());
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void nextWhenSizeBelowOneThenRejected() {
        assertThatThrownBy(() -> positions.next("proxy_", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("size: 0 (expected: >= 1)");
    }
}
