package io.observatory.management;

import java.util.concurrent.atomic.AtomicReference;
import java.util.Map;
import io.observatory.verdict.PassiveView;
import io.observatory.verdict.OutboundHealth;
import io.observatory.verdict.HealthBoard;
import io.observatory.health.AvailabilityPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.stats.HealthPingStats;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import io.observatory.status.StatusMapping;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class ObservationGaugesTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final ObservationStore store = new ObservationStore(nanos::get);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicReference<HealthBoard> board = new AtomicReference<>(new HealthBoard(Map.of(), AvailabilityPolicy.HEALTHY_AND_UNKNOWN));

    ObservationGaugesTest() {
        new ObservationGauges(store, board::get, registry, Clock.fixed(NOW, ZoneOffset.UTC), nanos::get);
    }

    private static OutboundStatus alive(String tag, Instant lastSeen) {
        return new OutboundStatus(tag, true, 8, "", lastSeen, lastSeen, null, null, new ActiveHealth(HealthState.HEALTHY, 1, 0), "");
    }

    private static OutboundStatus dead(String tag, Instant lastSeen) {
        return new OutboundStatus(tag, false, OutboundStatus.DEAD_DELAY_MILLIS, "outbound " + tag + ": refused",
                lastSeen, NOW, null, null, new ActiveHealth(HealthState.UNHEALTHY, 0, 1), "");
    }

    private double gauge(String name, String outbound) {
        return registry.get(name).tag("outbound", outbound).gauge().value();
    }

    @Test
    void aliveWhenPassiveHealthSaysUnhealthyThenZeroAsInXraysApi() {
        OutboundStatus probedAlive = alive("a", NOW);
        store.publish(new Observation(List.of(probedAlive)));
        double beforeReports = gauge(ObservationGauges.ALIVE, "a");

        board.set(new HealthBoard(Map.of("a", new OutboundHealth("a", probedAlive,
                new PassiveView(HealthState.UNHEALTHY, 10, 4, 0, null), HealthState.UNHEALTHY, NOW, "passive")),
                AvailabilityPolicy.HEALTHY_AND_UNKNOWN));

        assertThat(beforeReports).isEqualTo(1.0);
        assertThat(gauge(ObservationGauges.ALIVE, "a")).isZero();
    }

    @Test
    void publishThenAliveIsOneForAliveAndZeroForDeadOutbounds() {
        store.publish(new Observation(List.of(alive("a", NOW), dead("b", null))));

        assertThat(gauge(ObservationGauges.ALIVE, "a")).isEqualTo(1.0);
        assertThat(gauge(ObservationGauges.ALIVE, "b")).isEqualTo(0.0);
    }

    @Test
    void publishThenAliveFollowsTheLatestSnapshot() {
        store.publish(new Observation(List.of(alive("a", NOW))));
        store.publish(new Observation(List.of(dead("a", NOW))));

        assertThat(gauge(ObservationGauges.ALIVE, "a")).isEqualTo(0.0);
        assertThat(registry.find(ObservationGauges.ALIVE).gauges()).hasSize(1);
    }

    @Test
    void publishThenLastSuccessAgeInSecondsOnlyForOutboundsThatSucceededOnce() {
        store.publish(new Observation(List.of(dead("a", NOW.minusSeconds(42)), dead("never", null))));

        assertThat(registry.get(ObservationGauges.LAST_SUCCESS_AGE).tag("outbound", "a").timeGauge()
                .value(TimeUnit.SECONDS)).isEqualTo(42.0);
        assertThat(registry.find(ObservationGauges.LAST_SUCCESS_AGE).tag("outbound", "never").gauges()).isEmpty();
    }

    @Test
    void publishWhenStatusLosesItsLastSuccessThenLastSuccessAgeRemoved() {
        store.publish(new Observation(List.of(alive("a", NOW))));

        store.publish(new Observation(List.of(StatusMapping.fromBurst("a", new HealthPingStats(1, 0, 0, 5, 5, 5),
                new ActiveHealth(HealthState.HEALTHY, 1, 0), ""))));

        assertThat(registry.find(ObservationGauges.LAST_SUCCESS_AGE).gauges()).isEmpty();
        assertThat(gauge(ObservationGauges.ALIVE, "a")).isEqualTo(1.0);
    }

    @Test
    void publishWhenOutboundLeavesTheObservationThenItsGaugesVanish() {
        store.publish(new Observation(List.of(alive("a", NOW), alive("b", NOW))));

        store.publish(new Observation(List.of(alive("a", NOW))));

        assertThat(registry.find(ObservationGauges.ALIVE).gauges())
                .extracting(gauge -> gauge.getId().getTag("outbound")).containsExactly("a");
        assertThat(registry.find(ObservationGauges.LAST_SUCCESS_AGE).gauges())
                .extracting(gauge -> gauge.getId().getTag("outbound")).containsExactly("a");
    }

    @Test
    void publishWhenOutboundComesBackThenItsGaugesReturn() {
        store.publish(new Observation(List.of(alive("b", NOW))));
        store.publish(Observation.EMPTY);

        store.publish(new Observation(List.of(dead("b", NOW.minusSeconds(5)))));

        assertThat(gauge(ObservationGauges.ALIVE, "b")).isEqualTo(0.0);
        assertThat(registry.get(ObservationGauges.LAST_SUCCESS_AGE).tag("outbound", "b").timeGauge()
                .value(TimeUnit.SECONDS)).isEqualTo(5.0);
    }

    @Test
    void snapshotAgeWhenNothingPublishedThenAbsent() {
        assertThat(registry.find(ObservationGauges.SNAPSHOT_AGE).gauges()).isEmpty();
    }

    @Test
    void snapshotAgeThenSecondsSinceTheLatestPublication() {
        store.publish(Observation.EMPTY);
        nanos.addAndGet(Duration.ofSeconds(3).toNanos());
        store.publish(Observation.EMPTY);

        nanos.addAndGet(Duration.ofMillis(2_500).toNanos());

        assertThat(registry.get(ObservationGauges.SNAPSHOT_AGE).timeGauge().value(TimeUnit.SECONDS)).isEqualTo(2.5);
    }
}
