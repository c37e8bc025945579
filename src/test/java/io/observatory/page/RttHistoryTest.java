package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ActiveHealth;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveView;
import io.observatory.snapshot.SourceHealth;
import io.observatory.stats.HealthPingStats;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.SyntheticStatuses;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The history fed by a store whose publications the test makes by hand, on a fake writer. */
class RttHistoryTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    private final FakeScheduler writer = new FakeScheduler();
    private final Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
    private ObservationStore store;
    private RttHistory history;

    private void start(OutboundHealth... initial) {
        for (OutboundHealth outbound : initial) {
            outbounds.put(outbound.tag(), outbound);
        }
        store = new ObservationStore(writer, observation());
        history = new RttHistory(store);
        writer.runDue();
    }

    private Observation observation() {
        return new Observation(outbounds, AvailabilityPolicy.HEALTHY_AND_UNKNOWN, OptionalLong.empty());
    }

    /** Publishes {@code now} in place of the entries of the same tags, as the updater would. */
    private void publish(OutboundHealth... now) {
        List<OutboundEvent> events = new ArrayList<>();
        for (OutboundHealth outbound : now) {
            OutboundHealth previous = outbounds.put(outbound.tag(), outbound);
            events.add(
                    previous == null
                            ? new OutboundEvent.Added(outbound)
                            : new OutboundEvent.Updated(previous, outbound));
        }
        Observation next = observation();
        writer.execute(() -> store.publish(new ObservationUpdate(next, events)));
        writer.runDue();
    }

    private void remove(String tag) {
        OutboundHealth previous = outbounds.remove(tag);
        Observation next = observation();
        writer.execute(
                () -> store.publish(new ObservationUpdate(next, List.of(new OutboundEvent.Removed(previous, T0)))));
        writer.runDue();
    }

    private static OutboundHealth entry(String tag, @Nullable OutboundStatus probe, @Nullable SourceHealth mesh) {
        return new OutboundHealth(
                tag, probe, PassiveView.NONE, mesh == null ? List.of() : List.of(mesh), HealthState.UNKNOWN, T0, "");
    }

    /** The mesh's state of an entry point, measured by witnesses whose last reports came at {@code lastTry}. */
    private static SourceHealth mesh(
            HealthState state, boolean usable, String detail, long delayMillis, Instant lastSeen, Instant lastTry) {
        return new SourceHealth(
                "mesh", state, detail, new SourceHealth.Measurement(usable, delayMillis, lastSeen, lastTry));
    }

    private static OutboundHealth probed(String tag, boolean alive, long rttMillis) {
        return entry(tag, SyntheticStatuses.probed(tag, alive, rttMillis * 1_000_000, T0), null);
    }

    @Test
    void ofWhenProbesArriveThenTheirRttsInMicrosecondsAndFailuresAsMinusOneOldestFirst() {
        start(entry("a", null, null));

        publish(probed("a", true, 12));
        publish(probed("a", false, 5_000));
        publish(probed("a", true, 7));

        assertThat(history.of("a").micros()).containsExactly(12_000, RttSamples.FAILED, 7_000);
    }

    @Test
    void ofWhenMoreProbesThanSamplesThenTheLastSamplesOnly() {
        start(entry("a", null, null));

        for (int i = 1; i <= RttHistory.SAMPLES + 5; i++) {
            publish(probed("a", true, i));
        }

        assertThat(history.of("a").micros())
                .hasSize(RttHistory.SAMPLES)
                .startsWith(6_000)
                .endsWith(37_000);
    }

    @Test
    void ofWhenOnlyThePassiveSideChangesThenNoNewSample() {
        OutboundHealth probed = probed("a", true, 12);
        start(probed);

        publish(new OutboundHealth(
                "a",
                probed.probe(),
                new PassiveView(HealthState.UNHEALTHY, 10, 5, 0, null),
                List.of(),
                HealthState.UNHEALTHY,
                T0,
                "passive healthy -> unhealthy"));

        assertThat(history.of("a").micros())
                .as("the probe of the starting observation only")
                .containsExactly(12_000);
    }

    @Test
    void ofWhenBurstWindowsChangeThenTheirAveragesAndAWindowWithoutSuccessAsFailed() {
        start(entry("b", null, null));
        ActiveHealth healthy = new ActiveHealth(HealthState.HEALTHY, 1, 0);

        publish(entry(
                "b",
                OutboundStatus.fromBurst("b", new HealthPingStats(4, 1, 0, 30_000_000, 0, 0), healthy, "1/4 failed"),
                null));
        publish(entry(
                "b",
                OutboundStatus.fromBurst("b", new HealthPingStats(4, 4, 0, 0, 0, 0), healthy, "4/4 failed"),
                null));

        assertThat(history.of("b").micros()).containsExactly(30_000, RttSamples.FAILED);
    }

    @Test
    void ofWhenAMeshEntryPointIsReportedThenTheMediansOfNewReportsOnly() {
        start(entry("s1/main", null, null));
        Instant report = T0.plusSeconds(1);

        publish(entry("s1/main", null, mesh(HealthState.HEALTHY, true, "ok", 9, report, report)));
        publish(entry("s1/main", null, mesh(HealthState.DEGRADED, true, "pair cut", 9, report, report)));
        publish(entry(
                "s1/main",
                null,
                mesh(
                        HealthState.UNHEALTHY,
                        false,
                        "unreachable",
                        OutboundStatus.DEAD_DELAY_MILLIS,
                        report,
                        report.plusSeconds(1))));

        assertThat(history.of("s1/main").micros()).containsExactly(9_000, RttSamples.FAILED);
    }

    @Test
    void ofWhenTheOutboundIsRemovedThenNoSamplesLeft() {
        start(probed("a", true, 12));

        remove("a");

        assertThat(history.of("a")).isSameAs(RttSamples.NONE);
    }

    @Test
    void observationWhenPublishedThenTheOneWhoseSamplesAreRecorded() {
        start(entry("a", null, null));
        Observation before = history.observation();

        publish(probed("a", true, 12));

        assertThat(history.observation()).isNotSameAs(before).isSameAs(store.current());
        assertThat(history.observation().get("a").orElseThrow().probe()).isNotNull();
    }
}
