package io.observatory.verdict;

import io.observatory.health.Availability;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.testing.Configs;
import io.observatory.health.ActiveHealth;
import io.observatory.health.CallOutcome;
import io.observatory.health.HealthState;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import io.observatory.testing.FakeScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class VerdictKeeperTest {

    private static final String[] THRESHOLD_2 = {"passive.consecutive-failures.threshold=2",
            "passive.consecutive-failures.reactivation-period=30s"};

    private final FakeScheduler scheduler = new FakeScheduler();
    private final ObservationStore store = new ObservationStore(scheduler);
    private final List<BoardUpdate> updates = Collections.synchronizedList(new ArrayList<>());

    private static ObservatoryConfig config(String[] settings, String... tags) {
        return Configs.direct(List.of(tags), settings);
    }

    private VerdictKeeper keeper(ObservatoryConfig config) {
        VerdictKeeper keeper = new VerdictKeeper(config, scheduler, scheduler.clock(), store);
        keeper.watch(board -> { }, updates::add);
        scheduler.runDue();
        return keeper;
    }

    private static OutboundStatus probed(String tag, HealthState state) {
        boolean alive = state == HealthState.HEALTHY;
        return new OutboundStatus(tag, alive, alive ? 12 : OutboundStatus.DEAD_DELAY_MILLIS, alive ? "" : "refused",
                null, null, null, null, new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1),
                alive ? "probe succeeded: HTTP 204 in 12 ms" : "probe failed: refused");
    }

    private void publish(OutboundStatus... statuses) {
        store.publish(new Observation(List.of(statuses)));
        scheduler.runDue();
    }

    private void report(VerdictKeeper keeper, String tag, CallOutcome outcome, int times) {
        List<PassiveReport> reports = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            reports.add(new PassiveReport(tag, outcome, 1_000_000, scheduler.clock().instant()));
        }
        keeper.report(reports);
        scheduler.runDue();
    }

    private List<VerdictEvent> eventsSince(int update) {
        return updates.subList(update, updates.size()).stream().flatMap(u -> u.events().stream()).toList();
    }

    @Test
    void boardWhenStartedThenEveryConfiguredOutboundUnknownAndNotProbed() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "b", "a"));

        assertThat(keeper.board().all()).extracting(OutboundHealth::tag).containsExactly("a", "b");
        assertThat(keeper.board().all()).allSatisfy(outbound -> {
            assertThat(outbound.verdict()).isEqualTo(HealthState.UNKNOWN);
            assertThat(outbound.probed()).isFalse();
            assertThat(outbound.alive()).isFalse();
        });
        assertThat(updates).as("the board exists from construction").isEmpty();
    }

    @Test
    void publicationWhenActiveStateChangesThenOneEventWithReasonAndLogLine(CapturedOutput output) {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a", "b"));
        publish(probed("a", HealthState.HEALTHY));
        int before = updates.size();

        publish(probed("a", HealthState.UNHEALTHY), probed("b", HealthState.UNKNOWN));
        publish(probed("a", HealthState.UNHEALTHY), probed("b", HealthState.UNKNOWN));

        List<VerdictEvent> events = eventsSince(before);
        assertThat(events).hasSize(1);
        VerdictEvent.Changed changed = (VerdictEvent.Changed) events.get(0);
        assertThat(changed.previousVerdict()).isEqualTo(HealthState.HEALTHY);
        assertThat(changed.now().verdict()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(changed.now().lastChangeReason()).isEqualTo("active healthy -> unhealthy: probe failed: refused");
        assertThat(changed.now().lastChange()).isEqualTo(scheduler.clock().instant());
        assertThat(keeper.board().get("b").orElseThrow().probed()).isTrue();
        assertThat(output.getOut()).containsOnlyOnce(
                "outbound a: healthy -> unhealthy (active healthy -> unhealthy: probe failed: refused)");
    }

    @Test
    void reportWhenCeilingReachedThenPassiveUnhealthyOverridesHealthyProbeAndXrayAliveFalse() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a"));
        publish(probed("a", HealthState.HEALTHY));

        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 1);
        OutboundHealth belowCeiling = keeper.board().get("a").orElseThrow();
        report(keeper, "a", CallOutcome.APPLICATION_FAILURE, 1);
        OutboundHealth atCeiling = keeper.board().get("a").orElseThrow();

        assertThat(belowCeiling.verdict()).isEqualTo(HealthState.HEALTHY);
        assertThat(belowCeiling.passive().consecutiveFailures()).isEqualTo(1);
        assertThat(atCeiling.passive().state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(atCeiling.verdict()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(atCeiling.alive()).isFalse();
        assertThat(atCeiling.lastChangeReason())
                .isEqualTo("passive unknown -> unhealthy: 2 consecutive failed calls (threshold 2)");
        assertThat(atCeiling.passive().calls().totalCalls()).isEqualTo(2);
        assertThat(atCeiling.passive().calls().failedCalls()).isEqualTo(2);
    }

    @Test
    void reactivationWhenPeriodPassesThenPassiveUnknownWithoutAnyNewEvidence() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a"));
        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 2);
        int before = updates.size();

        scheduler.advance(Duration.ofSeconds(30).minusNanos(1));
        HealthState justBefore = keeper.board().get("a").orElseThrow().passive().state();
        scheduler.advance(Duration.ofNanos(1));

        assertThat(justBefore).isEqualTo(HealthState.UNHEALTHY);
        OutboundHealth reactivated = keeper.board().get("a").orElseThrow();
        assertThat(reactivated.passive().state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(reactivated.lastChangeReason()).isEqualTo("passive unhealthy -> unknown: reactivation period 30s passed");
        assertThat(eventsSince(before)).hasSize(1);
        assertThat(scheduler.pendingTasks()).isZero();
    }

    @Test
    void reportWhenTransportFailureRateReachedThenUnhealthyWithWindowCounts() {
        VerdictKeeper keeper = keeper(config(new String[0], "a"));
        report(keeper, "a", CallOutcome.SUCCESS, 7);
        report(keeper, "a", CallOutcome.APPLICATION_FAILURE, 1);
        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 2);
        OutboundHealth below = keeper.board().get("a").orElseThrow();
        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 1);

        OutboundHealth above = keeper.board().get("a").orElseThrow();
        assertThat(below.passive().state()).as("2/10 < 0.3").isEqualTo(HealthState.HEALTHY);
        assertThat(above.passive().state()).as("3/11 < 0.3").isEqualTo(HealthState.HEALTHY);
        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 1);
        OutboundHealth unhealthy = keeper.board().get("a").orElseThrow();
        assertThat(unhealthy.passive().state()).as("4/12 >= 0.3").isEqualTo(HealthState.UNHEALTHY);
        assertThat(unhealthy.passive().windowCalls()).isEqualTo(12);
        assertThat(unhealthy.passive().windowFailures()).isEqualTo(4);
        assertThat(unhealthy.lastChangeReason()).isEqualTo("passive healthy -> unhealthy: 4/12 calls in the 1m0s"
                + " window failed in transport (limit 0.3, minimal total count 10)");
    }

    @Test
    void reportWhenCallEndedEarlierThenJudgedOnArrivalAndUnhealthyForTheWholeReactivationPeriod() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a"));
        scheduler.advance(Duration.ofSeconds(100));
        Instant twoMinutesAgo = scheduler.clock().instant().minusSeconds(120);
        keeper.report(List.of(new PassiveReport("a", CallOutcome.TRANSPORT_FAILURE, 5, twoMinutesAgo),
                new PassiveReport("a", CallOutcome.TRANSPORT_FAILURE, 5, twoMinutesAgo)));
        scheduler.runDue();

        OutboundHealth unhealthy = keeper.board().get("a").orElseThrow();
        scheduler.advance(Duration.ofSeconds(30).minusNanos(1));
        HealthState justBeforeReactivation = keeper.board().get("a").orElseThrow().passive().state();

        assertThat(unhealthy.passive().state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(unhealthy.passive().calls().lastCall()).as("statistics keep the call's own time")
                .isEqualTo(twoMinutesAgo);
        assertThat(justBeforeReactivation).isEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void applyWhenOnlyPassiveParametersChangeThenPassiveStatesKept() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a"));
        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 2);

        keeper.reconfigure(config(new String[] {"passive.consecutive-failures.threshold=2",
                "passive.consecutive-failures.reactivation-period=2m"}, "a"));
        scheduler.runDue();
        HealthState afterReload = keeper.board().get("a").orElseThrow().passive().state();
        scheduler.advance(Duration.ofMinutes(2));

        assertThat(afterReload).isEqualTo(HealthState.UNHEALTHY);
        assertThat(keeper.board().get("a").orElseThrow().passive().state())
                .as("the new reactivation period applies").isEqualTo(HealthState.UNKNOWN);
    }

    @Test
    void reportWhenTagNoLongerConfiguredThenDropped() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a"));

        report(keeper, "gone", CallOutcome.TRANSPORT_FAILURE, 3);

        assertThat(keeper.board().all()).extracting(OutboundHealth::tag).containsExactly("a");
    }

    @Test
    void applyWhenOutboundRemovedThenRemovedEventAndPassiveStateForgotten() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a", "b"));
        report(keeper, "b", CallOutcome.TRANSPORT_FAILURE, 2);
        int before = updates.size();

        keeper.reconfigure(config(THRESHOLD_2, "a"));
        scheduler.runDue();
        keeper.reconfigure(config(THRESHOLD_2, "a", "b"));
        scheduler.runDue();

        assertThat(eventsSince(before)).extracting(VerdictEvent::getClass)
                .containsExactly(VerdictEvent.Removed.class, VerdictEvent.Changed.class);
        assertThat(keeper.board().get("b").orElseThrow().passive()).isEqualTo(PassiveView.NONE);
    }

    @Test
    void applyWhenPassivePolicyChangesThenPassiveStatesStartOverButCallStatisticsStay() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "a"));
        report(keeper, "a", CallOutcome.TRANSPORT_FAILURE, 2);

        keeper.reconfigure(config(new String[0], "a"));
        scheduler.runDue();

        OutboundHealth a = keeper.board().get("a").orElseThrow();
        assertThat(a.passive().state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(a.lastChangeReason())
                .isEqualTo("passive unhealthy -> unknown: passive policy changed to transport-failure-rate");
        assertThat(a.passive().calls().totalCalls()).isEqualTo(2);
    }

    @Test
    void availableWhenEveryOutboundUnhealthyThenPanicReturnsAll() {
        VerdictKeeper keeper = keeper(config(THRESHOLD_2, "p_a", "p_b", "q"));
        publish(probed("p_a", HealthState.UNHEALTHY), probed("p_b", HealthState.HEALTHY));
        Availability<OutboundHealth> oneUsable = keeper.board().available(List.of("p_"));

        publish(probed("p_a", HealthState.UNHEALTHY), probed("p_b", HealthState.UNHEALTHY));
        Availability<OutboundHealth> none = keeper.board().available(List.of("p_"));

        assertThat(oneUsable.usable()).extracting(OutboundHealth::tag).containsExactly("p_b");
        assertThat(oneUsable.panic()).isFalse();
        assertThat(none.usable()).extracting(OutboundHealth::tag).containsExactly("p_a", "p_b");
        assertThat(none.panic()).isTrue();
    }

    @Test
    void availableWhenHealthyAndUnknownPolicyThenNoPanicAndEmpty() {
        VerdictKeeper keeper = keeper(config(new String[] {"passive.consecutive-failures.threshold=2",
                "availability.healthy-and-unknown="}, "p_a"));
        publish(probed("p_a", HealthState.UNHEALTHY));

        Availability<OutboundHealth> selection = keeper.board().available(List.of("p_"));

        assertThat(selection.usable()).isEmpty();
        assertThat(selection.panic()).isFalse();
    }
}
