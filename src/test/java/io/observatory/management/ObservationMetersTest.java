package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.config.MetricsSettings;
import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveHealth;
import io.observatory.health.CallOutcome;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveReport;
import io.observatory.stats.HealthPingStats;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ObservationMetersTest {

    private final FakeScheduler writer = new FakeScheduler();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ProbeMetrics probes = new ProbeMetrics(registry, new MetricsSettings(List.of()), Clock.systemUTC());
    private ObservationUpdater updater;

    private void start(String... tags) {
        start(config(tags));
    }

    private void start(ObservatoryConfig config) {
        updater = new ObservationUpdater(config, writer, writer.clock());
        new ObservationMeters(updater.store(), registry, probes, writer.clock(), writer);
        writer.runDue();
    }

    private static ObservatoryConfig config(String... tags) {
        return Configs.direct(List.of(tags), "passive.consecutive-failures.threshold=1");
    }

    private Instant now() {
        return writer.clock().instant();
    }

    private static OutboundStatus alive(String tag, Instant lastSeen) {
        return new OutboundStatus(
                tag,
                true,
                8,
                "",
                lastSeen,
                lastSeen,
                null,
                null,
                new ActiveHealth(HealthState.HEALTHY, 1, 0),
                "probe succeeded");
    }

    private static OutboundStatus dead(String tag, Instant lastSeen) {
        return new OutboundStatus(
                tag,
                false,
                OutboundStatus.DEAD_DELAY_MILLIS,
                "outbound " + tag + ": refused",
                lastSeen,
                lastSeen,
                null,
                null,
                new ActiveHealth(HealthState.UNHEALTHY, 0, 1),
                "probe failed");
    }

    private void observe(OutboundStatus... statuses) {
        writer.execute(() -> ObserverOutput.publish(updater, List.of(statuses)));
        writer.runDue();
    }

    private void reconfigure(String... tags) {
        writer.execute(() -> updater.reconfigure(config(tags)));
        writer.runDue();
    }

    private Double gauge(String name, String outbound) {
        Gauge gauge = registry.find(name).tag("outbound", outbound).gauge();
        return gauge == null ? null : gauge.value();
    }

    private List<String> tagsOf(String name) {
        return registry.find(name).meters().stream()
                .map(meter -> meter.getId().getTag("outbound"))
                .sorted()
                .toList();
    }

    @Test
    void verdictWhenVerdictsChangeThenOneHealthyZeroUnknownMinusOneUnhealthy() {
        start("a", "b", "c");

        observe(alive("a", now()), dead("b", null));

        assertThat(gauge(ObservationMeters.VERDICT, "a")).isEqualTo(1.0);
        assertThat(gauge(ObservationMeters.VERDICT, "b")).isEqualTo(-1.0);
        assertThat(gauge(ObservationMeters.VERDICT, "c")).isEqualTo(0.0);
    }

    @Test
    void verdictWhenOutboundLeavesAndReturnsThenRemovedAndRegisteredAgain() {
        start("a", "b");

        reconfigure("a");
        Double whileGone = gauge(ObservationMeters.VERDICT, "b");
        reconfigure("a", "b");

        assertThat(whileGone).isNull();
        assertThat(gauge(ObservationMeters.VERDICT, "b")).isEqualTo(0.0);
        assertThat(tagsOf(ObservationMeters.VERDICT)).containsExactly("a", "b");
    }

    @Test
    void aliveWhenObservedThenOneForAliveZeroForDeadAndAbsentForUnobserved() {
        start("a", "b", "c");

        observe(alive("a", now()), dead("b", null));

        assertThat(gauge(ObservationMeters.ALIVE, "a")).isEqualTo(1.0);
        assertThat(gauge(ObservationMeters.ALIVE, "b")).isEqualTo(0.0);
        assertThat(tagsOf(ObservationMeters.ALIVE)).containsExactly("a", "b");
    }

    @Test
    void aliveWhenPassiveHealthSaysUnhealthyThenZeroAsInXraysApi() {
        start("a");
        observe(alive("a", now()));
        double beforeReports = gauge(ObservationMeters.ALIVE, "a");

        updater.report(List.of(new PassiveReport("a", CallOutcome.TRANSPORT_FAILURE, 1_000_000, now())));
        writer.runDue();

        assertThat(beforeReports).isEqualTo(1.0);
        assertThat(gauge(ObservationMeters.ALIVE, "a")).isZero();
    }

    @Test
    void lastSuccessAgeWhenObservedThenSecondsSinceTheLastSuccessOnlyForOutboundsThatSucceededOnce() {
        start("a", "never");
        Instant seen = now();
        writer.advance(Duration.ofSeconds(42));

        observe(dead("a", seen), dead("never", null));

        assertThat(registry.get(ObservationMeters.LAST_SUCCESS_AGE)
                        .tag("outbound", "a")
                        .timeGauge()
                        .value(TimeUnit.SECONDS))
                .isEqualTo(42.0);
        assertThat(tagsOf(ObservationMeters.LAST_SUCCESS_AGE)).containsExactly("a");
    }

    @Test
    void lastSuccessAgeWhenStatusLosesItsLastSuccessThenRemovedAndAliveKept() {
        start("a");
        observe(alive("a", now()));

        observe(OutboundStatus.fromBurst(
                "a",
                new HealthPingStats(1, 0, 0, 5, 5, 5),
                new ActiveHealth(HealthState.HEALTHY, 1, 0),
                "0/1 samples failed"));

        assertThat(tagsOf(ObservationMeters.LAST_SUCCESS_AGE)).isEmpty();
        assertThat(gauge(ObservationMeters.ALIVE, "a")).isEqualTo(1.0);
    }

    @Test
    void gaugesWhenOutboundLeavesTheObservationThenItsObservationGaugesAndProbeMetersVanish() {
        start("a", "b");
        probes.record(new ProbeResult("b", true, 8_000_000, ProbePhases.NONE, 204, now(), now(), null));
        observe(alive("a", now()), alive("b", now()));

        observe(alive("a", now()));

        assertThat(tagsOf(ObservationMeters.ALIVE)).containsExactly("a");
        assertThat(tagsOf(ObservationMeters.LAST_SUCCESS_AGE)).containsExactly("a");
        assertThat(tagsOf(ObservationMeters.VERDICT)).as("still configured").containsExactly("a", "b");
        assertThat(registry.find(ProbeMetrics.RESULTS).tag("outbound", "b").counters())
                .isEmpty();
    }

    @Test
    void gaugesWhenOutboundComesBackThenTheyReturn() {
        start("b");
        observe(alive("b", now()));
        observe();
        Instant seen = now();
        writer.advance(Duration.ofSeconds(5));

        observe(dead("b", seen));

        assertThat(gauge(ObservationMeters.ALIVE, "b")).isEqualTo(0.0);
        assertThat(registry.get(ObservationMeters.LAST_SUCCESS_AGE)
                        .tag("outbound", "b")
                        .timeGauge()
                        .value(TimeUnit.SECONDS))
                .isEqualTo(5.0);
    }

    @Test
    void snapshotAgeWhenObserverPublishedNothingYetThenAbsent() {
        start("a");

        updater.report(List.of(new PassiveReport("a", CallOutcome.SUCCESS, 1_000_000, now())));
        writer.runDue();

        assertThat(registry.find(ObservationMeters.SNAPSHOT_AGE).gauges()).isEmpty();
    }

    @Test
    void snapshotAgeThenSecondsSinceTheObserversLatestPublication() {
        start("a");
        observe(alive("a", now()));
        writer.advance(Duration.ofSeconds(3));
        observe(alive("a", now()));

        writer.advance(Duration.ofMillis(2_500));

        assertThat(registry.get(ObservationMeters.SNAPSHOT_AGE).timeGauge().value(TimeUnit.SECONDS))
                .isEqualTo(2.5);
    }

    @Test
    void availabilityPanicWhenEveryOutboundTurnsUnhealthyThenOneAndZeroAgainWhenOneRecovers() {
        start("a", "b");
        double whileUnknown =
                registry.get(ObservationMeters.AVAILABILITY_PANIC).gauge().value();

        observe(dead("a", null), dead("b", null));
        double allUnhealthy =
                registry.get(ObservationMeters.AVAILABILITY_PANIC).gauge().value();
        observe(alive("a", now()), dead("b", null));

        assertThat(whileUnknown).isZero();
        assertThat(allUnhealthy).isEqualTo(1.0);
        assertThat(registry.get(ObservationMeters.AVAILABILITY_PANIC).gauge().value())
                .isZero();
    }

    @Test
    void availabilityPanicWhenHealthyAndUnknownPolicyThenNeverInPanic() {
        start(Configs.yaml("""
                observatory:
                  outbounds: [ { tag: a, protocol: direct } ]
                  availability: { healthy-and-unknown: {} }
                """));

        observe(dead("a", null));

        assertThat(gauge(ObservationMeters.VERDICT, "a")).isEqualTo(-1.0);
        assertThat(registry.get(ObservationMeters.AVAILABILITY_PANIC).gauge().value())
                .isZero();
    }
}
