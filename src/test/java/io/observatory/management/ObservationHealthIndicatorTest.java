package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class ObservationHealthIndicatorTest {

    private final FakeScheduler writer = new FakeScheduler();
    private final ObservationUpdater updater = new ObservationUpdater(Configs.of(), writer, writer.clock());
    private final ObservationHealthIndicator indicator = new ObservationHealthIndicator(updater.store(), writer);

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
        writer.advance(Duration.ofSeconds(7));
        readiness(ReadinessState.ACCEPTING_TRAFFIC);

        writer.advance(Duration.ofMillis(millisAfterStart));

        assertThat(indicator.health().getStatus().getCode()).isEqualTo(status);
    }

    @Test
    void healthWhenObserverPublishedFirstStatusesThenUpBeforeTheGrace() {
        readiness(ReadinessState.ACCEPTING_TRAFFIC);
        writer.advance(Duration.ofSeconds(1));

        writer.execute(() -> ObserverOutput.publish(updater, List.of()));
        writer.runDue();

        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("reason", "first snapshot published");
    }

    @Test
    void healthWhenReadinessEventsRepeatThenGraceCountsFromTheFirst() {
        readiness(ReadinessState.ACCEPTING_TRAFFIC);
        writer.advance(Duration.ofSeconds(10));
        readiness(ReadinessState.REFUSING_TRAFFIC);
        readiness(ReadinessState.ACCEPTING_TRAFFIC);

        writer.advance(Duration.ofSeconds(5));

        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
    }
}
