package io.observatory.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveHealth;
import io.observatory.health.Availability;
import io.observatory.health.CallOutcome;
import io.observatory.health.HealthState;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class ObservationUpdaterTest {

    private static final String[] THRESHOLD_2 = {
        "passive.consecutive-failures.threshold=2", "passive.consecutive-failures.reactivation-period=30s"
    };

    private final FakeScheduler scheduler = new FakeScheduler();
    private final List<ObservationUpdate> updates = new ArrayList<>();

    private static ObservatoryConfig config(String[] settings, String... tags) {
        return Configs.direct(List.of(tags), settings);
    }

    private ObservationUpdater updater(ObservatoryConfig config) {
        ObservationUpdater updater = new ObservationUpdater(config, scheduler, scheduler.clock());
        updater.store().watch(observation -> {}, updates::add);
        scheduler.runDue();
        return updater;
    }

    private static OutboundStatus probed(String tag, HealthState state) {
        return probed(tag, state, 12);
    }

    private static OutboundStatus probed(String tag, HealthState state, long delayMillis) {
        boolean alive = state == HealthState.HEALTHY;
        return new OutboundStatus(
                tag,
                alive,
                alive ? delayMillis : OutboundStatus.DEAD_DELAY_MILLIS,
                alive ? "" : "refused",
                null,
                null,
                null,
                null,
                new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1),
                alive ? "probe succeeded: HTTP 204 in " + delayMillis + " ms" : "probe failed: refused");
    }

    /** Hands the observer's statuses over on the writer, as an observer does, and lets the refresh run. */
    private void observe(ObservationUpdater updater, OutboundStatus... statuses) {
        scheduler.execute(() -> ObserverOutput.publish(updater, List.of(statuses)));
        scheduler.runDue();
    }

    private void reconfigure(ObservationUpdater updater, ObservatoryConfig next) {
        scheduler.execute(() -> updater.reconfigure(next));
        scheduler.runDue();
    }

    private void report(ObservationUpdater updater, String tag, CallOutcome outcome, int times) {
        List<PassiveReport> reports = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            reports.add(
                    new PassiveReport(tag, outcome, 1_000_000, scheduler.clock().instant()));
        }
        updater.report(reports);
        scheduler.runDue();
    }

    private static OutboundHealth outbound(ObservationUpdater updater, String tag) {
        return updater.store().current().get(tag).orElseThrow();
    }

    private List<OutboundEvent> transitionsSince(int update) {
        return updates.subList(update, updates.size()).stream()
                .flatMap(u -> u.transitions().stream())
                .toList();
    }

    @Test
    void observationWhenStartedThenEveryConfiguredOutboundUnknownAndNotProbed() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "b", "a"));
        Observation observation = updater.store().current();

        assertThat(observation.all()).extracting(OutboundHealth::tag).containsExactly("a", "b");
        assertThat(observation.all()).allSatisfy(outbound -> {
            assertThat(outbound.verdict()).isEqualTo(HealthState.UNKNOWN);
            assertThat(outbound.probed()).isFalse();
            assertThat(outbound.alive()).isFalse();
            assertThat(outbound.lastChangeReason()).isEqualTo("outbound added");
        });
        assertThat(observation.observedAtNanos()).as("no observer statuses yet").isEmpty();
        assertThat(updates).as("the observation exists from construction").isEmpty();
    }

    @Test
    void observedWhenActiveStateChangesThenOneTransitionWithReasonAndLogLine(CapturedOutput output) {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a", "b"));
        observe(updater, probed("a", HealthState.HEALTHY));
        int before = updates.size();

        observe(updater, probed("a", HealthState.UNHEALTHY), probed("b", HealthState.UNKNOWN));
        observe(updater, probed("a", HealthState.UNHEALTHY), probed("b", HealthState.UNKNOWN));

        List<OutboundEvent> transitions = transitionsSince(before);
        assertThat(transitions).hasSize(1);
        OutboundEvent.Updated changed = (OutboundEvent.Updated) transitions.get(0);
        assertThat(changed.previous().verdict()).isEqualTo(HealthState.HEALTHY);
        assertThat(changed.now().verdict()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(changed.now().lastChangeReason()).isEqualTo("active healthy -> unhealthy: probe failed: refused");
        assertThat(changed.now().lastChange()).isEqualTo(scheduler.clock().instant());
        assertThat(outbound(updater, "b").probed()).isTrue();
        assertThat(output.getOut())
                .containsOnlyOnce(
                        "outbound a: healthy -> unhealthy (active healthy -> unhealthy: probe failed: refused)");
    }

    @Test
    void changedWhenOneStatusOfManyThenOnlyItsEntryReplacedAndTheOthersKeptAsTheyWere() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a", "b", "c"));
        observe(
                updater,
                probed("a", HealthState.HEALTHY),
                probed("b", HealthState.HEALTHY),
                probed("c", HealthState.HEALTHY));
        Observation before = updater.store().current();
        int updatesBefore = updates.size();

        scheduler.execute(() -> updater.changed(List.of(probed("b", HealthState.UNHEALTHY)), List.of()));
        scheduler.runDue();

        Observation after = updater.store().current();
        assertThat(after.get("a").orElseThrow()).isSameAs(before.get("a").orElseThrow());
        assertThat(after.get("c").orElseThrow()).isSameAs(before.get("c").orElseThrow());
        assertThat(after.get("b").orElseThrow().verdict()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(after.all()).extracting(OutboundHealth::tag).containsExactly("a", "b", "c");
        assertThat(updates.subList(updatesBefore, updates.size()))
                .singleElement()
                .satisfies(update -> assertThat(update.events())
                        .extracting(OutboundEvent::tag)
                        .containsExactly("b"));
    }

    @Test
    void changedWhenTagGoneOrNotConfiguredThenGoneIsUnprobedAndTheStrangerIgnored() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a", "b"));
        observe(updater, probed("a", HealthState.HEALTHY), probed("b", HealthState.HEALTHY));

        scheduler.execute(() -> updater.changed(List.of(probed("stranger", HealthState.HEALTHY)), List.of("a")));
        scheduler.runDue();

        Observation after = updater.store().current();
        assertThat(after.get("a").orElseThrow().probed()).isFalse();
        assertThat(after.get("a").orElseThrow().verdict()).isEqualTo(HealthState.UNKNOWN);
        assertThat(after.get("b").orElseThrow().verdict()).isEqualTo(HealthState.HEALTHY);
        assertThat(after.get("stranger")).isEmpty();
    }

    @Test
    void observedWhenOnlyEvidenceChangesThenUpdatedEventButNoTransition() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        observe(updater, probed("a", HealthState.HEALTHY, 12));
        int before = updates.size();

        observe(updater, probed("a", HealthState.HEALTHY, 40));

        ObservationUpdate update = updates.get(before);
        assertThat(update.events()).singleElement().isInstanceOfSatisfying(OutboundEvent.Updated.class, updated -> {
            assertThat(updated.previous().probe().delayMillis()).isEqualTo(12);
            assertThat(updated.now().probe().delayMillis()).isEqualTo(40);
        });
        assertThat(update.transitions()).isEmpty();
        assertThat(outbound(updater, "a").lastChangeReason())
                .as("no state changed, the reason stays")
                .isEqualTo("active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms");
    }

    @Test
    void observedWhenObserverPublishesThenObservationCarriesTheTimeOfItsStatuses() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        scheduler.advance(Duration.ofSeconds(3));

        observe(updater, probed("a", HealthState.HEALTHY));

        assertThat(updater.store().current().observedAtNanos())
                .hasValue(Duration.ofSeconds(3).toNanos());
    }

    @Test
    void observedWhenOutboundDeselectedThenNotProbedAndActiveUnknownNoLongerObserved() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        observe(updater, probed("a", HealthState.HEALTHY));

        observe(updater);

        OutboundHealth a = outbound(updater, "a");
        assertThat(a.probed()).isFalse();
        assertThat(a.verdict()).isEqualTo(HealthState.UNKNOWN);
        assertThat(a.lastChangeReason()).isEqualTo("active healthy -> unknown: no longer observed");
        assertThat(updater.store().current().observed()).isEmpty();
    }

    @Test
    void reportWhenThresholdReachedThenPassiveUnhealthyOverridesHealthyProbeAndXrayAliveFalse() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        observe(updater, probed("a", HealthState.HEALTHY));

        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 1);
        OutboundHealth belowThreshold = outbound(updater, "a");
        report(updater, "a", CallOutcome.APPLICATION_FAILURE, 1);
        OutboundHealth atThreshold = outbound(updater, "a");

        assertThat(belowThreshold.verdict()).isEqualTo(HealthState.HEALTHY);
        assertThat(belowThreshold.passive().consecutiveFailures()).isEqualTo(1);
        assertThat(atThreshold.passive().state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(atThreshold.verdict()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(atThreshold.alive()).isFalse();
        assertThat(atThreshold.lastChangeReason())
                .isEqualTo("passive unknown -> unhealthy: 2 consecutive failed calls (threshold 2)");
        assertThat(atThreshold.passive().calls().totalCalls()).isEqualTo(2);
        assertThat(atThreshold.passive().calls().failedCalls()).isEqualTo(2);
    }

    @Test
    void reactivationWhenPeriodPassesThenPassiveUnknownWithoutAnyNewEvidence() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 2);
        int before = updates.size();

        scheduler.advance(Duration.ofSeconds(30).minusNanos(1));
        HealthState justBefore = outbound(updater, "a").passive().state();
        scheduler.advance(Duration.ofNanos(1));

        assertThat(justBefore).isEqualTo(HealthState.UNHEALTHY);
        OutboundHealth reactivated = outbound(updater, "a");
        assertThat(reactivated.passive().state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(reactivated.lastChangeReason())
                .isEqualTo("passive unhealthy -> unknown: reactivation period 30s passed");
        assertThat(transitionsSince(before)).hasSize(1);
        assertThat(scheduler.pendingTasks()).isZero();
    }

    @Test
    void reportWhenTransportFailureRateReachedThenUnhealthyWithWindowCounts() {
        ObservationUpdater updater = updater(config(new String[0], "a"));
        report(updater, "a", CallOutcome.SUCCESS, 7);
        report(updater, "a", CallOutcome.APPLICATION_FAILURE, 1);
        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 2);
        OutboundHealth below = outbound(updater, "a");
        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 1);

        OutboundHealth above = outbound(updater, "a");
        assertThat(below.passive().state()).as("2/10 < 0.3").isEqualTo(HealthState.HEALTHY);
        assertThat(above.passive().state()).as("3/11 < 0.3").isEqualTo(HealthState.HEALTHY);
        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 1);
        OutboundHealth unhealthy = outbound(updater, "a");
        assertThat(unhealthy.passive().state()).as("4/12 >= 0.3").isEqualTo(HealthState.UNHEALTHY);
        assertThat(unhealthy.passive().windowCalls()).isEqualTo(12);
        assertThat(unhealthy.passive().windowFailures()).isEqualTo(4);
        assertThat(unhealthy.lastChangeReason())
                .isEqualTo("passive healthy -> unhealthy: 4/12 calls in the 1m0s"
                        + " window failed in transport (limit 0.3, minimal total count 10)");
    }

    @Test
    void reportWhenCallEndedEarlierThenJudgedOnArrivalAndUnhealthyForTheWholeReactivationPeriod() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        scheduler.advance(Duration.ofSeconds(100));
        Instant twoMinutesAgo = scheduler.clock().instant().minusSeconds(120);
        updater.report(List.of(
                new PassiveReport("a", CallOutcome.TRANSPORT_FAILURE, 5, twoMinutesAgo),
                new PassiveReport("a", CallOutcome.TRANSPORT_FAILURE, 5, twoMinutesAgo)));
        scheduler.runDue();

        OutboundHealth unhealthy = outbound(updater, "a");
        scheduler.advance(Duration.ofSeconds(30).minusNanos(1));
        HealthState justBeforeReactivation = outbound(updater, "a").passive().state();

        assertThat(unhealthy.passive().state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(unhealthy.passive().calls().lastCall())
                .as("statistics keep the call's own time")
                .isEqualTo(twoMinutesAgo);
        assertThat(justBeforeReactivation).isEqualTo(HealthState.UNHEALTHY);
    }

    @Test
    void reconfigureWhenOnlyPassiveParametersChangeThenPassiveStatesKept() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 2);

        reconfigure(
                updater,
                config(
                        new String[] {
                            "passive.consecutive-failures.threshold=2",
                            "passive.consecutive-failures.reactivation-period=2m"
                        },
                        "a"));
        HealthState afterReload = outbound(updater, "a").passive().state();
        scheduler.advance(Duration.ofMinutes(2));

        assertThat(afterReload).isEqualTo(HealthState.UNHEALTHY);
        assertThat(outbound(updater, "a").passive().state())
                .as("the new reactivation period applies")
                .isEqualTo(HealthState.UNKNOWN);
    }

    @Test
    void reportWhenTagNoLongerConfiguredThenDropped() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));

        report(updater, "gone", CallOutcome.TRANSPORT_FAILURE, 3);

        assertThat(updater.store().current().all())
                .extracting(OutboundHealth::tag)
                .containsExactly("a");
    }

    @Test
    void reconfigureWhenOutboundRemovedThenRemovedEventAndPassiveStateForgotten() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a", "b"));
        report(updater, "b", CallOutcome.TRANSPORT_FAILURE, 2);
        int before = updates.size();

        reconfigure(updater, config(THRESHOLD_2, "a"));
        reconfigure(updater, config(THRESHOLD_2, "a", "b"));

        assertThat(transitionsSince(before))
                .extracting(OutboundEvent::getClass)
                .containsExactly(OutboundEvent.Removed.class, OutboundEvent.Added.class);
        assertThat(outbound(updater, "b").passive()).isEqualTo(PassiveView.NONE);
    }

    @Test
    void reconfigureWhenPassivePolicyChangesThenPassiveStatesStartOverButCallStatisticsStay() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "a"));
        report(updater, "a", CallOutcome.TRANSPORT_FAILURE, 2);

        reconfigure(updater, config(new String[0], "a"));

        OutboundHealth a = outbound(updater, "a");
        assertThat(a.passive().state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(a.lastChangeReason())
                .isEqualTo("passive unhealthy -> unknown: passive policy changed to transport-failure-rate");
        assertThat(a.passive().calls().totalCalls()).isEqualTo(2);
    }

    @Test
    void availableWhenEveryOutboundUnhealthyThenPanicReturnsAll() {
        ObservationUpdater updater = updater(config(THRESHOLD_2, "p_a", "p_b", "q"));
        observe(updater, probed("p_a", HealthState.UNHEALTHY), probed("p_b", HealthState.HEALTHY));
        Availability<OutboundHealth> oneUsable = updater.store().current().available(List.of("p_"));

        observe(updater, probed("p_a", HealthState.UNHEALTHY), probed("p_b", HealthState.UNHEALTHY));
        Availability<OutboundHealth> none = updater.store().current().available(List.of("p_"));

        assertThat(oneUsable.usable()).extracting(OutboundHealth::tag).containsExactly("p_b");
        assertThat(oneUsable.panic()).isFalse();
        assertThat(none.usable()).extracting(OutboundHealth::tag).containsExactly("p_a", "p_b");
        assertThat(none.panic()).isTrue();
    }

    @Test
    void availableWhenHealthyAndUnknownPolicyThenNoPanicAndEmpty() {
        ObservationUpdater updater = updater(config(
                new String[] {"passive.consecutive-failures.threshold=2", "availability.healthy-and-unknown="}, "p_a"));
        observe(updater, probed("p_a", HealthState.UNHEALTHY));

        Availability<OutboundHealth> selection = updater.store().current().available(List.of("p_"));

        assertThat(selection.usable()).isEmpty();
        assertThat(selection.panic()).isFalse();
    }
}
