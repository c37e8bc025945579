package io.observatory.status;

import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.status.ObservationStore.Publication;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class ObservationStoreTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final ObservationStore store = new ObservationStore(nanos::get);

    private static Observation observationOf(String... tags) {
        List<OutboundStatus> statuses = new ArrayList<>();
        for (String tag : tags) {
            statuses.add(new OutboundStatus(tag, true, 1, "", null, null, null, null, new ActiveHealth(HealthState.HEALTHY, 1, 0), ""));
        }
        return new Observation(statuses);
    }

    @Test
    void currentWhenNothingPublishedThenEmptyAndNoPublication() {
        assertThat(store.current()).isSameAs(Observation.EMPTY);
        assertThat(store.lastPublication()).isEmpty();
    }

    @Test
    void publishThenCurrentIsTheSnapshotStampedWithTheTicker() {
        Observation observation = observationOf("a");
        nanos.set(42_000);

        store.publish(observation);

        assertThat(store.current()).isSameAs(observation);
        assertThat(store.lastPublication()).contains(new Publication(observation, 42_000));
    }

    @Test
    void publishThenListenersHearEachPublicationInRegistrationOrder() {
        List<String> heard = new ArrayList<>();
        store.addListener(publication -> heard.add("first " + publication.observation().statuses().size()));
        store.addListener(publication -> heard.add("second " + publication.publishedAtNanos()));

        store.publish(observationOf("a", "b"));
        nanos.set(5_000);
        store.publish(observationOf("a"));

        assertThat(heard).containsExactly("first 2", "second 1000", "first 1", "second 5000");
    }
}
