package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class ObservationHealthIndicatorTest {

    private final AtomicLong nanos = new AtomicLong();
    private final ObservationStore store = new ObservationStore(nanos::get);
    private final ObservationHealthIndicator indicator = new ObservationHealthIndicator(store, nanos::get);

    private void readiness(ReadinessState state) {
        indicator.onApplicationEvent(new AvailabilityChangeEvent<>(this, state));
    }

    @Test
    void healthWhenServiceNotAcceptingTrafficYetThenOutOfService() {
        Health health = indicator.health();

        assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(health.getDetails()).containsEntry("reason", "observer not started");
    }

    @ParameterizedTest(name = "{0} ms after start without a snapshot: {1}")
    @CsvSource({"0, OUT_OF_SERVICE", "14999, OUT_OF_SERVICE", "15000, UP", "60000, UP"})
    void healthWhenNoSnapshotThenUpOnlyOnceTheGraceHasPassed(long millisAfterStart, String status) {
        nanos.set(7_000_000_000L);
        readiness(ReadinessState.ACCEPTING_TRAFFIC);

        nanos.addAndGet(Duration.ofMillis(millisAfterStart).toNanos());

        assertThat(indicator.health().getStatus().getCode()).isEqualTo(status);
    }

    @Test
    void healthWhenFirstSnapshotPublishedThenUpBeforeTheGrace() {
        readiness(ReadinessState.ACCEPTING_TRAFFIC);
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());

        store.publish(Observation.EMPTY);

        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("reason", "first snapshot published");
    }

    @Test
    void healthWhenReadinessEventsRepeatThenGraceCountsFromTheFirst() {
        readiness(ReadinessState.ACCEPTING_TRAFFIC);
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        readiness(ReadinessState.REFUSING_TRAFFIC);
        readiness(ReadinessState.ACCEPTING_TRAFFIC);

        nanos.addAndGet(Duration.ofSeconds(5).toNanos());

        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
    }
}
