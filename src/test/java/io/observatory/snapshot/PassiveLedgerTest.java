package io.observatory.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.CallOutcome;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.HealthState;
import io.observatory.health.PassivePolicy;
import io.observatory.health.TransportFailureRatePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The passive ledger: per-outbound policy states and call statistics, moved by reports and by time. */
class PassiveLedgerTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    private static final Duration REACTIVATION = Duration.ofSeconds(60);
    private static final Instant ENDED = Instant.parse("2026-12-01T10:00:00Z");

    private final PassiveLedger<?> ledger = PassiveLedger.of(new ConsecutiveFailuresPolicy(3, REACTIVATION));

    private static PassiveReport report(String tag, CallOutcome outcome, long latencyMillis, Instant endedAt) {
        return new PassiveReport(tag, outcome, Duration.ofMillis(latencyMillis).toNanos(), endedAt);
    }

    private void fail(String tag, int times, long atNanos) {
        for (int i = 0; i < times; i++) {
            ledger.record(report(tag, CallOutcome.TRANSPORT_FAILURE, 10, ENDED), atNanos);
        }
    }

    @Test
    void viewWhenNothingReportedThenNone() {
        assertThat(ledger.view("proxy_a")).isEqualTo(PassiveView.NONE);
        assertThat(ledger.nextReactivationNanos()).isEmpty();
    }

    @Test
    void recordWhenFailuresReachTheThresholdThenUnhealthyAndReactivationDueOnePeriodLater() {
        fail("proxy_a", 2, 5 * SECOND);
        assertThat(ledger.view("proxy_a").state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(ledger.view("proxy_a").consecutiveFailures()).isEqualTo(2);
        assertThat(ledger.nextReactivationNanos()).isEmpty();

        fail("proxy_a", 1, 7 * SECOND);

        assertThat(ledger.view("proxy_a").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(ledger.nextReactivationNanos()).hasValue(7 * SECOND + REACTIVATION.toNanos());
        assertThat(ledger.describe("proxy_a", HealthState.UNKNOWN))
                .isEqualTo("3 consecutive failed calls (threshold 3)");
    }

    @Test
    void advanceWhenReactivationPeriodPassesThenUnknownAgainAndReportedAsChangedOnce() {
        fail("proxy_a", 3, 0);
        fail("proxy_b", 3, 10 * SECOND);
        long due = REACTIVATION.toNanos();

        assertThat(ledger.advance(due - 1)).isEmpty();
        assertThat(ledger.advance(due)).containsExactly("proxy_a");
        assertThat(ledger.advance(due)).isEmpty();

        assertThat(ledger.view("proxy_a").state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(ledger.view("proxy_b").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(ledger.describe("proxy_a", HealthState.UNHEALTHY)).isEqualTo("reactivation period 1m0s passed");
        assertThat(ledger.nextReactivationNanos()).hasValue(10 * SECOND + due);
    }

    @Test
    void recordWhenReportsArriveOutOfOrderThenStatisticsSpanTheirOwnEndTimes() {
        Instant earlier = ENDED.minusSeconds(30);
        ledger.record(report("proxy_a", CallOutcome.SUCCESS, 100, ENDED), 0);
        ledger.record(report("proxy_a", CallOutcome.APPLICATION_FAILURE, 300, earlier), SECOND);

        PassiveView view = ledger.view("proxy_a");

        assertThat(view.calls())
                .isEqualTo(new CallStatistics(2, 1, Duration.ofMillis(200).toNanos(), earlier, ENDED));
        assertThat(view.consecutiveFailures()).isEqualTo(1);
    }

    @Test
    void withPolicyWhenSameKindThenStatesAndStatisticsCarryOverUnderTheNewParameters() {
        fail("proxy_a", 2, 0);

        PassiveLedger<?> next = ledger.withPolicy(new ConsecutiveFailuresPolicy(2, REACTIVATION));

        assertThat(next.view("proxy_a")).isEqualTo(ledger.view("proxy_a"));
        next.record(report("proxy_a", CallOutcome.TRANSPORT_FAILURE, 10, ENDED), SECOND);
        assertThat(next.view("proxy_a").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(ledger.view("proxy_a").state())
                .as("the old ledger is left as it was")
                .isEqualTo(HealthState.UNKNOWN);
    }

    @Test
    void withPolicyWhenOtherKindThenStatesStartOverAndStatisticsStay() {
        fail("proxy_a", 3, 0);

        PassiveLedger<?> next =
                ledger.withPolicy(new TransportFailureRatePolicy(Duration.ofSeconds(60), 10, 0.3, REACTIVATION));

        PassiveView view = next.view("proxy_a");
        assertThat(view.state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(view.consecutiveFailures()).isZero();
        assertThat(view.calls()).isEqualTo(ledger.view("proxy_a").calls());
        assertThat(next.nextReactivationNanos()).isEmpty();
    }

    @Test
    void retainWhenOutboundRemovedThenItsStateAndStatisticsAreForgotten() {
        fail("proxy_a", 3, 0);
        fail("proxy_b", 1, 0);

        ledger.retain(Set.of("proxy_b"));

        assertThat(ledger.view("proxy_a")).isEqualTo(PassiveView.NONE);
        assertThat(ledger.view("proxy_b").calls().totalCalls()).isEqualTo(1);
        assertThat(ledger.nextReactivationNanos()).isEmpty();
    }

    /**
     * The ledger advances only the outbounds that are due; the policy alone, applied to every state at every step,
     * is the reference: over random calls and times of 40 outbounds under both policies, every view, every changed
     * set and the next reactivation agree with it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void advanceWhenOnlyDueStatesAreVisitedThenEveryViewAndChangeIsThePoliciesOwn(PassivePolicy<?> policy) {
        check(policy);
    }

    static List<PassivePolicy<?>> policies() {
        return List.of(
                new ConsecutiveFailuresPolicy(3, Duration.ofSeconds(20)),
                new TransportFailureRatePolicy(Duration.ofSeconds(10), 5, 0.3, Duration.ofSeconds(15)));
    }

    private static <S extends PassivePolicy.PassiveState> void check(PassivePolicy<S> policy) {
        @SuppressWarnings("unchecked") // of(policy) judges by policy, whose state type is S
        PassiveLedger<S> indexed = (PassiveLedger<S>) PassiveLedger.of(policy);
        Map<String, S> reference = new HashMap<>();
        Random random = new Random(20261201);
        long base = -5 * SECOND;
        long now = base;
        for (int step = 0; step < 3_000; step++) {
            // Whole quarter seconds give or take a nanosecond: calls, bucket edges and reactivations meet exactly,
            // and just before and after.
            base += SECOND / 4 * (random.nextInt(4) == 0 ? random.nextInt(120) : random.nextInt(8));
            now = Math.max(now, base + random.nextInt(3) - 1);
            for (int call = random.nextInt(6); call > 0; call--) {
                String tag = "o" + random.nextInt(40);
                CallOutcome outcome = random.nextInt(3) == 0 ? CallOutcome.TRANSPORT_FAILURE : CallOutcome.SUCCESS;
                indexed.record(report(tag, outcome, 10, ENDED), now);
                reference.put(tag, policy.next(reference.getOrDefault(tag, policy.initial()), outcome, now));
            }
            Set<String> changed = new HashSet<>();
            long at = now;
            reference.replaceAll((tag, state) -> {
                S next = policy.advance(state, at);
                if (next != state) {
                    changed.add(tag);
                }
                return next;
            });

            assertThat(indexed.advance(now)).as("changed at step %d", step).isEqualTo(changed);
            reference.forEach(
                    (tag, state) -> assertThat(indexed.view(tag).state()).isEqualTo(state.state()));
            reference.forEach(
                    (tag, state) -> assertThat(indexed.view(tag).windowCalls()).isEqualTo(state.windowCalls()));
            OptionalLong reactivation = reference.values().stream()
                    .filter(state -> state.state() == HealthState.UNHEALTHY)
                    .mapToLong(state -> state.unhealthySinceNanos()
                            + policy.effectiveReactivationPeriod().toNanos())
                    .min();
            assertThat(indexed.nextReactivationNanos())
                    .as("next reactivation at step %d", step)
                    .isEqualTo(reactivation);
        }
    }
}
