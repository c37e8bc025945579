package io.observatory.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveHealth;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.HealthState;
import io.observatory.health.TransportFailureRatePolicy;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.CallStatistics;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveEntry;
import io.observatory.snapshot.PassiveView;
import io.observatory.state.v1.SavedState;
import io.observatory.stats.HealthPingStats;
import io.observatory.stats.RttRing;
import io.observatory.testing.Configs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StateRestoreTest {

    private static final Instant MEASURED = Instant.parse("2026-12-01T10:00:00.123456789Z");
    private static final Instant NOW = MEASURED.plusSeconds(4);
    private static final Duration MAX_AGE = Duration.ofSeconds(30);
    private static final String[] STANDARD = {
        "outbounds[0].tag=proxy_a",
        "outbounds[0].protocol=socks",
        "outbounds[0].address=127.0.0.1",
        "outbounds[0].port=1080",
        "outbounds[0].username=user",
        "outbounds[0].password=secret",
        "outbounds[1].tag=proxy_b",
        "outbounds[1].protocol=direct",
        "standard.subject-selector[0]=proxy_",
        "standard.probe-url=http://127.0.0.1:8080/generate_204",
        "standard.probe-interval=10s"
    };

    private static final OutboundStatus ALIVE = new OutboundStatus(
            "proxy_a",
            true,
            12,
            "",
            MEASURED.minusSeconds(1),
            MEASURED,
            null,
            new ProbeResult(
                    "proxy_a",
                    true,
                    12_345_678,
                    new ProbePhases(ProbePhases.NOT_MEASURED, 300_000, 2_000_000, ProbePhases.NOT_MEASURED, 9_000_000),
                    204,
                    MEASURED.minusMillis(13),
                    MEASURED,
                    null),
            new ActiveHealth(HealthState.HEALTHY, 3, 0),
            "probe succeeded: HTTP 204 in 12 ms");
    private static final OutboundStatus DEAD = new OutboundStatus(
            "proxy_b",
            false,
            OutboundStatus.DEAD_DELAY_MILLIS,
            "outbound proxy_b: connection refused by 127.0.0.1:8080",
            null,
            MEASURED,
            null,
            new ProbeResult(
                    "proxy_b",
                    false,
                    400_000,
                    ProbePhases.NONE,
                    0,
                    MEASURED.minusMillis(1),
                    MEASURED,
                    new ProbeError(
                            ProbeError.Kind.PROXY_REFUSED_TARGET,
                            ProbeError.Hop.PROXY,
                            "outbound proxy_b: connection refused by 127.0.0.1:8080",
                            5)),
            new ActiveHealth(HealthState.UNHEALTHY, 0, 2),
            "probe failed: connection refused");

    @Test
    void selectWhenTheSameConfigurationThenEveryStatusAsSavedAndMarkedWithItsMeasuredTime() {
        ObservatoryConfig config = Configs.of(STANDARD);

        StateRestore.Restoration restoration = roundTrip(config, config, NOW, List.of(ALIVE, DEAD), Map.of());

        assertThat(restoration.statuses()).containsExactly(ALIVE.asRestored(MEASURED), DEAD.asRestored(MEASURED));
        assertThat(restoration.summary(List.of()))
                .isEqualTo("restored 2 statuses and 0 passive states written 4s ago;"
                        + " dropped 0 (0 older than 30s, 0 measuring something else now, 0 no longer configured)");
    }

    @Test
    void selectWhenWrittenAFractionOfASecondAgoThenTheLineSaysItToTheMillisecond() {
        ObservatoryConfig config = Configs.of(STANDARD);

        StateRestore.Restoration restoration =
                roundTrip(config, config, MEASURED.plusNanos(3_212_345_678L), List.of(ALIVE), Map.of());

        assertThat(restoration.summary(List.of())).contains(" written 3.212s ago;");
    }

    @Test
    void selectWhenABurstStatusThenItsWindowStatisticsAsSaved() {
        ObservatoryConfig config = Configs.of(
                "outbounds[0].tag=proxy_a",
                "outbounds[0].protocol=direct",
                "burst.subject-selector[0]=proxy_",
                "burst.ping-config.destination=http://127.0.0.1:8080/",
                "burst.ping-config.interval=10s",
                "burst.ping-config.sampling=3");
        OutboundStatus burst = OutboundStatus.fromBurst(
                "proxy_a",
                new HealthPingStats(3, 1, 5_000, 20_000_000, 25_000_000, 15_000_000),
                new ActiveHealth(HealthState.HEALTHY, 1, 0),
                "1/3 samples failed");

        StateRestore.Restoration restoration = roundTrip(config, config, NOW, List.of(burst), Map.of());

        assertThat(restoration.statuses()).containsExactly(burst.asRestored(MEASURED));
    }

    @Test
    void selectWhenBurstSamplesThenEachAsOldOnThisProcesssTicker() {
        ObservatoryConfig config = Configs.of(
                "outbounds[0].tag=proxy_a",
                "outbounds[0].protocol=direct",
                "outbounds[1].tag=proxy_b",
                "outbounds[1].protocol=direct",
                "burst.subject-selector[0]=proxy_",
                "burst.ping-config.destination=http://127.0.0.1:8080/");
        OutboundStatus burst = OutboundStatus.fromBurst(
                "proxy_a",
                new HealthPingStats(2, 1, 0, 20_000_000, 20_000_000, 20_000_000),
                new ActiveHealth(HealthState.HEALTHY, 1, 0),
                "1/2 samples failed");
        long takenNanos = 50_000_000_000L;
        StateSnapshot snapshot = new StateSnapshot(
                MEASURED,
                takenNanos,
                config,
                snapshot(config, List.of(burst), Map.of()).observation(),
                Map.of(
                        "proxy_a",
                                List.of(
                                        new RttRing.Sample(takenNanos - 3_000_000_000L, false, 0),
                                        new RttRing.Sample(takenNanos - 1_000_000_000L, true, 20_000_000)),
                        "proxy_b", List.of(new RttRing.Sample(takenNanos, true, 1))),
                new ObservationUpdater.PassiveEntries("consecutive-failures", List.of()),
                Map.of());

        StateRestore.Restoration restoration =
                StateRestore.select(StateCodec.encode(snapshot).toByteArray(), config, NOW, 7_000_000_000L, MAX_AGE);

        assertThat(restoration.samples()).as("4 s later; proxy_b had no status").containsOnlyKeys("proxy_a");
        assertThat(restoration.samples().get("proxy_a"))
                .containsExactly(new RttRing.Sample(0, false, 0), new RttRing.Sample(2_000_000_000L, true, 20_000_000));
    }

    @Test
    void selectWhenPassiveStatesThenEachWithItsTimesOnThisProcesssTicker() {
        ObservatoryConfig config = Configs.of(STANDARD);
        long takenNanos = 50_000_000_000L;
        CallStatistics calls = new CallStatistics(12, 5, 3_000_000, MEASURED.minusSeconds(60), MEASURED);
        PassiveEntry unhealthy = new PassiveEntry(
                "proxy_a",
                new ConsecutiveFailuresPolicy.State(HealthState.UNHEALTHY, 5, takenNanos - 2_000_000_000L),
                calls);
        PassiveEntry windowed = new PassiveEntry(
                "proxy_b",
                new TransportFailureRatePolicy.State(
                        HealthState.UNKNOWN,
                        List.of(
                                new TransportFailureRatePolicy.Bucket(48, 3, 1),
                                new TransportFailureRatePolicy.Bucket(49, 2, 0)),
                        0),
                null);
        StateSnapshot snapshot = new StateSnapshot(
                MEASURED,
                takenNanos,
                config,
                snapshot(config, List.of(), Map.of()).observation(),
                Map.of(),
                new ObservationUpdater.PassiveEntries("consecutive-failures", List.of(unhealthy)),
                Map.of());
        StateSnapshot rates = new StateSnapshot(
                MEASURED,
                takenNanos,
                config,
                snapshot.observation(),
                Map.of(),
                new ObservationUpdater.PassiveEntries("transport-failure-rate", List.of(windowed)),
                Map.of());

        List<PassiveEntry> restored = StateRestore.select(
                        StateCodec.encode(snapshot).toByteArray(), config, NOW, 7_000_000_000L, MAX_AGE)
                .passive();
        List<PassiveEntry> restoredRates = StateRestore.select(
                        StateCodec.encode(rates).toByteArray(), config, NOW, 7_000_000_000L, MAX_AGE)
                .passive();

        assertThat(restored)
                .as("unhealthy 2 s before the snapshot, restored 4 s after it")
                .containsExactly(new PassiveEntry(
                        "proxy_a",
                        new ConsecutiveFailuresPolicy.State(HealthState.UNHEALTHY, 5, 1_000_000_000L),
                        calls));
        assertThat(restoredRates)
                .as("the buckets 2 and 1 s before the snapshot, whole seconds apart")
                .containsExactly(new PassiveEntry(
                        "proxy_b",
                        new TransportFailureRatePolicy.State(
                                HealthState.UNKNOWN,
                                List.of(
                                        new TransportFailureRatePolicy.Bucket(1, 3, 1),
                                        new TransportFailureRatePolicy.Bucket(2, 2, 0)),
                                0),
                        null));
    }

    @Test
    void selectWhenAnEjectedOutboundsLastCallIsOlderThanTheMaximumAgeThenKeptForTheReactivationPeriod() {
        ObservatoryConfig config = Configs.of(STANDARD);
        long takenNanos = 100_000_000_000L;
        PassiveEntry ejected = new PassiveEntry(
                "proxy_a",
                new ConsecutiveFailuresPolicy.State(HealthState.UNHEALTHY, 3, takenNanos - 40_000_000_000L),
                new CallStatistics(3, 3, 1_000_000, MEASURED.minusSeconds(42), MEASURED.minusSeconds(40)));
        PassiveEntry reactivated = new PassiveEntry(
                "proxy_b",
                new ConsecutiveFailuresPolicy.State(HealthState.UNHEALTHY, 3, takenNanos - 61_000_000_000L),
                new CallStatistics(3, 3, 1_000_000, MEASURED.minusSeconds(62), MEASURED.minusSeconds(61)));
        StateSnapshot snapshot = new StateSnapshot(
                MEASURED,
                takenNanos,
                config,
                snapshot(config, List.of(), Map.of()).observation(),
                Map.of(),
                new ObservationUpdater.PassiveEntries("consecutive-failures", List.of(ejected, reactivated)),
                Map.of());

        StateRestore.Restoration restoration =
                StateRestore.select(StateCodec.encode(snapshot).toByteArray(), config, MEASURED, takenNanos, MAX_AGE);

        assertThat(restoration.passive())
                .as("no calls for 40 s since it was ejected: 20 s of its 60 s left")
                .containsExactly(ejected);
        assertThat(restoration.summary(List.of())).contains("1 passive states").contains("dropped 1 (1 older than 30s");
    }

    @Test
    void selectWhenOlderThanTheMaximumAgeThenDroppedAndCounted() {
        ObservatoryConfig config = Configs.of(STANDARD);

        StateRestore.Restoration restoration =
                roundTrip(config, config, MEASURED.plusSeconds(31), List.of(ALIVE, DEAD), Map.of());

        assertThat(restoration.statuses()).isEmpty();
        assertThat(restoration.summary(List.of()))
                .endsWith("dropped 2 (2 older than 30s, 0 measuring something else now," + " 0 no longer configured)");
    }

    @Test
    void selectWhenMeasuredFurtherAheadOfThisClockThanTheMaximumAgeThenDroppedAndTheLineSaysSo() {
        ObservatoryConfig config = Configs.of(STANDARD);

        StateRestore.Restoration restoration =
                roundTrip(config, config, MEASURED.minusSeconds(3600), List.of(ALIVE, DEAD), Map.of());

        assertThat(restoration.statuses())
                .as("a clock an hour off says nothing of their age")
                .isEmpty();
        assertThat(restoration.summary(List.of()))
                .isEqualTo("restored 0 statuses and 0 passive states"
                        + " written 1h0m0s in the future (another clock, or this one set back); dropped 2 (0 older than 30s, 0"
                        + " measuring something else now, 0 no longer configured, 2 more than 30s in the future)");
    }

    @Test
    void selectWhenTimesSlightlyAheadOfThisClockThenRestoredAsOfNowNeverLater() {
        ObservatoryConfig config = Configs.of(
                "outbounds[0].tag=proxy_a",
                "outbounds[0].protocol=direct",
                "outbounds[1].tag=proxy_b",
                "outbounds[1].protocol=direct",
                "burst.subject-selector[0]=proxy_",
                "burst.ping-config.destination=http://127.0.0.1:8080/");
        OutboundStatus burst = OutboundStatus.fromBurst(
                "proxy_a",
                new HealthPingStats(1, 1, 0, 0, 0, 0),
                new ActiveHealth(HealthState.UNHEALTHY, 0, 1),
                "1/1 samples failed");
        long takenNanos = 50_000_000_000L;
        CallStatistics calls = new CallStatistics(5, 5, 3_000_000, MEASURED.minusSeconds(1), MEASURED);
        Observation observation = snapshot(config, List.of(burst), Map.of()).observation();
        StateSnapshot failures = new StateSnapshot(
                MEASURED,
                takenNanos,
                config,
                observation,
                Map.of("proxy_a", List.of(new RttRing.Sample(takenNanos, false, 0))),
                new ObservationUpdater.PassiveEntries(
                        "consecutive-failures",
                        List.of(new PassiveEntry(
                                "proxy_a",
                                new ConsecutiveFailuresPolicy.State(HealthState.UNHEALTHY, 5, takenNanos),
                                calls))),
                Map.of());
        StateSnapshot rates = new StateSnapshot(
                MEASURED,
                takenNanos,
                config,
                observation,
                Map.of(),
                new ObservationUpdater.PassiveEntries(
                        "transport-failure-rate",
                        List.of(new PassiveEntry(
                                "proxy_b",
                                new TransportFailureRatePolicy.State(
                                        HealthState.UNKNOWN,
                                        List.of(
                                                new TransportFailureRatePolicy.Bucket(49, 3, 1),
                                                new TransportFailureRatePolicy.Bucket(50, 2, 0)),
                                        0),
                                calls))),
                Map.of());
        Instant tenSecondsBehind = MEASURED.minusSeconds(10);
        long nowNanos = 7_000_000_000L;

        StateRestore.Restoration restored = StateRestore.select(
                StateCodec.encode(failures).toByteArray(), config, tenSecondsBehind, nowNanos, MAX_AGE);
        StateRestore.Restoration restoredRates = StateRestore.select(
                StateCodec.encode(rates).toByteArray(), config, tenSecondsBehind, nowNanos, MAX_AGE);

        assertThat(restored.samples().get("proxy_a"))
                .as("recorded now, so it expires on time")
                .containsExactly(new RttRing.Sample(nowNanos, false, 0));
        assertThat(restored.passive())
                .as("unhealthy since now, so it reactivates on time")
                .containsExactly(new PassiveEntry(
                        "proxy_a", new ConsecutiveFailuresPolicy.State(HealthState.UNHEALTHY, 5, nowNanos), calls));
        assertThat(restoredRates.passive())
                .as("the newest bucket is this second's")
                .containsExactly(new PassiveEntry(
                        "proxy_b",
                        new TransportFailureRatePolicy.State(
                                HealthState.UNKNOWN,
                                List.of(
                                        new TransportFailureRatePolicy.Bucket(6, 3, 1),
                                        new TransportFailureRatePolicy.Bucket(7, 2, 0)),
                                0),
                        calls));
        assertThat(restored.summary(List.of()))
                .contains("written 10s in the future (another clock, or this one set back)")
                .endsWith("0 no longer configured)");
    }

    @Test
    void selectWhenAnotherConfigurationThenOnlyWhatMeasuresTheSameThingIsRestored() {
        ObservatoryConfig saved = Configs.of(STANDARD);
        String[] otherPort = STANDARD.clone();
        otherPort[3] = "outbounds[0].port=1081";
        String[] otherUrl = STANDARD.clone();
        otherUrl[9] = "standard.probe-url=http://127.0.0.1:9090/generate_204";

        assertThat(roundTrip(saved, Configs.of(otherPort), NOW, List.of(ALIVE, DEAD), Map.of())
                        .statuses())
                .as("proxy_a now names another proxy")
                .containsExactly(DEAD.asRestored(MEASURED));
        StateRestore.Restoration otherProbe =
                roundTrip(saved, Configs.of(otherUrl), NOW, List.of(ALIVE, DEAD), Map.of());
        assertThat(otherProbe.statuses()).as("another probe URL").isEmpty();
        assertThat(otherProbe.summary(List.of()))
                .endsWith("dropped 2 (0 older than 30s, 2 measuring something else now," + " 0 no longer configured)");
        ObservatoryConfig burst = Configs.of(
                "outbounds[0].tag=proxy_a",
                "outbounds[0].protocol=socks",
                "outbounds[0].address=127.0.0.1",
                "outbounds[0].port=1080",
                "outbounds[0].username=user",
                "outbounds[0].password=secret",
                "burst.subject-selector[0]=proxy_",
                "burst.ping-config.destination=http://127.0.0.1:8080/generate_204");
        assertThat(roundTrip(saved, burst, NOW, List.of(ALIVE, DEAD), Map.of()).summary(List.of()))
                .as("another observer; proxy_b gone")
                .endsWith("dropped 2 (0 older than 30s, 1 measuring something" + " else now, 1 no longer configured)");
    }

    @Test
    void selectWhenTheObserverNoLongerSelectsAnOutboundThenItsStatusIsNotRestored() {
        String[] onlyB = STANDARD.clone();
        onlyB[8] = "standard.subject-selector[0]=proxy_b";

        StateRestore.Restoration restoration =
                roundTrip(Configs.of(STANDARD), Configs.of(onlyB), NOW, List.of(ALIVE, DEAD), Map.of());

        assertThat(restoration.statuses())
                .as("proxy_a is configured but no longer observed")
                .containsExactly(DEAD.asRestored(MEASURED));
        assertThat(restoration.summary(List.of()))
                .endsWith("dropped 1 (0 older than 30s, 1 measuring something else now," + " 0 no longer configured)");
    }

    @Test
    void selectWhenOnlyThePasswordChangedThenRestored() {
        String[] rotated = STANDARD.clone();
        rotated[5] = "outbounds[0].password=rotated";

        assertThat(roundTrip(Configs.of(STANDARD), Configs.of(rotated), NOW, List.of(ALIVE), Map.of())
                        .statuses())
                .containsExactly(ALIVE.asRestored(MEASURED));
    }

    @Test
    void selectWhenCheckpointsSavedPartsThenEachPartsBytesAsSavedAndAnEmptyOneLeftOut() {
        ObservatoryConfig config = Configs.of(STANDARD);
        byte[] notes = {1, 2, 3};

        StateRestore.Restoration restoration = roundTrip(
                config, config, NOW, List.of(), Map.of("notes", () -> notes, "nothing.yet", Checkpoint.Taken.NOTHING));

        assertThat(restoration.parts()).containsOnlyKeys("notes");
        assertThat(restoration.parts().get("notes")).containsExactly(1, 2, 3);
    }

    @Test
    void summaryWhenCheckpointsRestoredThenTheirCountsInTheLineAndTheirDropsInTheTotals() {
        ObservatoryConfig config = Configs.of(STANDARD);

        String summary = roundTrip(config, config, NOW, List.of(ALIVE), Map.of())
                .summary(List.of(new Checkpoint.Restored("notes", 4, 1, 0, 2)));

        assertThat(summary)
                .isEqualTo("restored 1 statuses, 0 passive states and 4 notes written 4s ago;"
                        + " dropped 3 (1 older than 30s, 0 measuring something else now, 2 no longer configured)");
    }

    @Test
    void selectWhenNotAPayloadOrAnUnknownStateThenIllegalArgumentNamingIt() {
        ObservatoryConfig config = Configs.of(STANDARD);
        SavedState unknownState = StateCodec.encode(snapshot(config, List.of(ALIVE), Map.of())).toBuilder()
                .setStatuses(
                        0,
                        StateCodec.encode(snapshot(config, List.of(ALIVE), Map.of())).getStatuses(0).toBuilder()
                                .setActiveState("SLEEPY"))
                .build();

        assertThatThrownBy(() -> StateRestore.select(
                        "not protobuf at all".getBytes(StandardCharsets.UTF_8), config, NOW, 0, MAX_AGE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("payload is not a saved state: ");
        assertThatThrownBy(() -> StateRestore.select(unknownState.toByteArray(), config, NOW, 0, MAX_AGE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SLEEPY");
    }

    private static StateRestore.Restoration roundTrip(
            ObservatoryConfig saved,
            ObservatoryConfig now,
            Instant at,
            List<OutboundStatus> statuses,
            Map<String, Checkpoint.Taken> parts) {
        byte[] payload = StateCodec.encode(snapshot(saved, statuses, parts)).toByteArray();
        return StateRestore.select(payload, now, at, 0, MAX_AGE);
    }

    private static StateSnapshot snapshot(
            ObservatoryConfig config, List<OutboundStatus> statuses, Map<String, Checkpoint.Taken> parts) {
        Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
        for (OutboundStatus status : statuses) {
            outbounds.put(
                    status.tag(),
                    new OutboundHealth(
                            status.tag(),
                            status,
                            PassiveView.NONE,
                            List.of(),
                            status.active().state(),
                            MEASURED,
                            "outbound added"));
        }
        return new StateSnapshot(
                MEASURED,
                0,
                config,
                new Observation(outbounds, config.availability().policy(), OptionalLong.empty()),
                Map.of(),
                new ObservationUpdater.PassiveEntries("consecutive-failures", List.of()),
                parts);
    }
}
