package io.observatory.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.testing.FakeScheduler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ObservationStoreTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private final FakeScheduler writer = new FakeScheduler();
    private final Observation initial = observationOf("a");
    private final ObservationStore store = new ObservationStore(writer, initial);

    private static Observation observationOf(String... tags) {
        Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
        for (String tag : tags) {
            outbounds.put(
                    tag, new OutboundHealth(tag, null, PassiveView.NONE, List.of(), HealthState.UNKNOWN, NOW, "added"));
        }
        return new Observation(outbounds, AvailabilityPolicy.HEALTHY_AND_UNKNOWN, OptionalLong.empty());
    }

    private static ObservationUpdate update(Observation observation) {
        return new ObservationUpdate(observation, List.of());
    }

    private void publishOnWriter(Observation observation) {
        writer.execute(() -> store.publish(update(observation)));
        writer.runDue();
    }

    @Test
    void currentWhenNothingPublishedThenTheInitialObservation() {
        assertThat(store.current()).isSameAs(initial);
    }

    @Test
    void publishWhenOffTheWriterThenRefusedAndTheSnapshotKept() {
        assertThatThrownBy(() -> store.publish(update(observationOf("b"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("(expected: the writer)");
        assertThat(store.current()).isSameAs(initial);
    }

    @Test
    void publishWhenOnTheWriterThenCurrentAndWatchersInRegistrationOrder() {
        List<String> heard = new ArrayList<>();
        store.watch(
                start -> heard.add("first starts at " + start.all().size()),
                update -> heard.add("first " + update.observation().all().size()));
        store.watch(
                start -> heard.add("second starts at " + start.all().size()),
                update -> heard.add("second " + update.observation().all().size()));
        writer.runDue();
        Observation two = observationOf("a", "b");

        publishOnWriter(two);

        assertThat(store.current()).isSameAs(two);
        assertThat(heard).containsExactly("first starts at 1", "second starts at 1", "first 2", "second 2");
    }

    @Test
    void watchWhenPublicationQueuedBeforeThenStartSeesItAndNoUpdateRepeatsIt() {
        Observation two = observationOf("a", "b");
        writer.execute(() -> store.publish(update(two)));
        List<Observation> starts = new ArrayList<>();
        List<ObservationUpdate> updates = new ArrayList<>();

        store.watch(starts::add, updates::add);
        writer.runDue();

        assertThat(starts).containsExactly(two);
        assertThat(updates).isEmpty();
    }

    @Test
    void publishWhenAWatcherThrowsThenTheOthersStillHearIt() {
        List<Observation> heard = new ArrayList<>();
        store.watch(start -> {}, update -> {
            throw new IllegalStateException("broken watcher");
        });
        store.watch(start -> {}, update -> heard.add(update.observation()));
        writer.runDue();
        Observation two = observationOf("a", "b");

        publishOnWriter(two);

        assertThat(heard).containsExactly(two);
    }

    @Test
    void watchWhenCancelledThenLaterPublicationsNotHeard() {
        List<Observation> heard = new ArrayList<>();
        Runnable cancel = store.watch(start -> {}, update -> heard.add(update.observation()));
        writer.runDue();
        publishOnWriter(observationOf("b"));

        cancel.run();
        publishOnWriter(observationOf("c"));

        assertThat(heard)
                .extracting(observation -> observation.all().iterator().next().tag())
                .containsExactly("b");
    }
}
