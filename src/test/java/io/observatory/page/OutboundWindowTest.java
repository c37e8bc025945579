package io.observatory.page;

import static io.observatory.testing.SyntheticStatuses.probed;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Windows of a real updater's observation: eight outbounds, of which the test makes some alive and some dead. */
class OutboundWindowTest {

    private final FakeScheduler writer = new FakeScheduler();
    private final ObservationUpdater updater = new ObservationUpdater(
            Configs.direct(List.of("de-1", "de-2", "de-3", "de-4", "nl-1", "nl-2", "us-1", "us-2")),
            writer,
            writer.clock());

    private Observation observe(OutboundStatus... statuses) {
        writer.execute(() -> ObserverOutput.publish(updater, List.of(statuses)));
        writer.runDue();
        return updater.store().current();
    }

    private Observation mixed() {
        return observe(
                probed("de-1", true, 5_000_000, writer.clock().instant()),
                probed("de-2", false, 1_000_000, writer.clock().instant()),
                probed("de-3", true, 5_000_000, writer.clock().instant()),
                probed("nl-1", false, 1_000_000, writer.clock().instant()));
    }

    private static PageQuery query(String prefix, Set<HealthState> verdicts, int offset, int limit) {
        return new PageQuery(prefix, verdicts, offset, limit);
    }

    @Test
    void ofWhenAPrefixIsGivenThenItsOutboundsCountedByVerdictInTheOrderHealthyDegradedUnhealthyUnknown() {
        OutboundWindow window = OutboundWindow.of(mixed(), query("de-", EnumSet.allOf(HealthState.class), 0, 100));

        assertThat(window.total()).isEqualTo(8);
        assertThat(window.counts())
                .containsExactly(
                        Map.entry("healthy", 2),
                        Map.entry("degraded", 0),
                        Map.entry("unhealthy", 1),
                        Map.entry("unknown", 1));
        assertThat(window.matching()).isEqualTo(4);
        assertThat(window.tags()).containsExactly("de-1", "de-2", "de-3", "de-4");
    }

    @Test
    void ofWhenVerdictsAreGivenThenOnlyTheirOutboundsAreShownAndTheCountsStayThePrefixs() {
        OutboundWindow window = OutboundWindow.of(mixed(), query("", EnumSet.of(HealthState.UNHEALTHY), 0, 100));

        assertThat(window.tags()).containsExactly("de-2", "nl-1");
        assertThat(window.matching()).isEqualTo(2);
        assertThat(window.counts()).containsEntry("healthy", 2).containsEntry("unknown", 4);
    }

    @Test
    void ofWhenPagedThenTheOffsetAndLimitCutTheMatchingOutboundsInTagOrder() {
        Observation observation = mixed();

        assertThat(OutboundWindow.of(observation, query("", EnumSet.allOf(HealthState.class), 3, 3))
                        .tags())
                .containsExactly("de-4", "nl-1", "nl-2");
        assertThat(OutboundWindow.of(observation, query("", EnumSet.allOf(HealthState.class), 6, 3))
                        .tags())
                .containsExactly("us-1", "us-2");
        OutboundWindow past = OutboundWindow.of(observation, query("", EnumSet.allOf(HealthState.class), 9, 3));
        assertThat(past.tags()).isEmpty();
        assertThat(past.matching()).isEqualTo(8);
    }

    @Test
    void rowWhenTheLastProbeFailedThenItsKindReasonStatesAndLastChange() {
        OutboundHealth failed = mixed().get("de-2").orElseThrow();

        OutboundRow row = OutboundRow.of(failed, RttSamples.NONE.plus(RttSamples.FAILED, 32));

        assertThat(row.verdict()).isEqualTo("unhealthy");
        assertThat(row.active()).isEqualTo("unhealthy");
        assertThat(row.passive()).isEqualTo("unknown");
        assertThat(row.errorKind()).isEqualTo("connection_refused");
        assertThat(row.error()).startsWith("outbound de-2 (socks5 10.0.0.5:1080): connection refused");
        assertThat(row.sources()).as("no health source has an opinion").isEmpty();
        assertThat(row.changed()).isEqualTo(failed.lastChange().toEpochMilli());
        assertThat(row.changeReason()).startsWith("active unknown -> unhealthy: probe failed: outbound de-2");
        assertThat(row.rtts().micros()).containsExactly(RttSamples.FAILED);
    }
}
