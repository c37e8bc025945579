package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.TransportFailureRatePolicy.Bucket;
import io.observatory.health.TransportFailureRatePolicy.State;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransportFailureRatePolicyTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();
    /** YARP's defaults: a 60 s window, 10 calls, a limit of 0.3, reactivation after 60 s. */
    private static final TransportFailureRatePolicy POLICY =
            new TransportFailureRatePolicy(Duration.ofSeconds(60), 10, 0.3, Duration.ofSeconds(60));

    /** Reports {@code count} calls with {@code outcome}, all at {@code nowNanos}. */
    private static State report(
            TransportFailureRatePolicy policy, State state, CallOutcome outcome, int count, long nowNanos) {
        for (int i = 0; i < count; i++) {
            state = policy.next(state, outcome, nowNanos);
        }
        return state;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // minimal total count - 1: not judged, the previous state (UNKNOWN) stays
        "TTTTTTTTT,   UNKNOWN",
        "SSSSSSSSS,   UNKNOWN",
        // minimal total count: judged
        "TTTTTTTTTT,  UNHEALTHY",
        "SSSSSSSSSS,  HEALTHY",
        // failure rate limit 0.3: reaching it is unhealthy (YARP: healthy only below it)
        "SSSSSSSTTT,  UNHEALTHY",
        "SSSSSSSSTT,  HEALTHY",
        "SSSSSSSSTTS, HEALTHY",
        "TTTSSSSSSSS, HEALTHY",
        // only transport failures count; application failures are calls, not failures
        "AAAAAAAAAA,  HEALTHY",
        "SSSSSSAAAT,  HEALTHY",
        "AAAAAAATTT,  UNHEALTHY",
    })
    void nextJudgesTheFailureRateOnceTheMinimalCountIsReached(String calls, HealthState expected) {
        State state = State.INITIAL;
        long now = 0;
        for (char call : calls.toCharArray()) {
            state = POLICY.next(state, ConsecutiveFailuresPolicyTest.outcome(call), now);
            now += SECOND;
        }

        assertThat(state.state()).isEqualTo(expected);
        assertThat(state.windowCalls()).isEqualTo(calls.length());
    }

    @ParameterizedTest(name = "10 failures then {0} successes -> {1}")
    @CsvSource({
        // 10/33 = 0.303: still unhealthy
        "23, UNHEALTHY",
        // 10/34 = 0.294: healthy again within the window, before reactivation (YARP)
        "24, HEALTHY",
    })
    void nextWhenRateFallsBelowTheLimitThenHealthy(int successes, HealthState expected) {
        State state = report(POLICY, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 10, 0);
        state = report(POLICY, state, CallOutcome.SUCCESS, successes, SECOND);

        assertThat(state.state()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "9 failures at {0} ns, success at {1} ns -> {2}, total {3}")
    @CsvSource({
        // bucket [0 s, 1 s) is in the window up to 60 s - 1 ns and leaves it at exactly 60 s
        "0,           59999999999, UNHEALTHY, 10",
        "0,           60000000000, UNKNOWN,   1",
        // buckets are whole seconds: a call at 0.5 s leaves with its bucket at 60 s
        "500000000,   59999999999, UNHEALTHY, 10",
        "500000000,   60000000000, UNKNOWN,   1",
        "1000000000,  60000000000, UNHEALTHY, 10",
        "1000000000,  61000000000, UNKNOWN,   1",
        // negative nanoTime readings are bucketed by floor division
        "-1,          58999999999, UNHEALTHY, 10",
        "-1,          59000000000, UNKNOWN,   1",
    })
    void nextExpiresBucketsAtTheWindowBoundary(
            long failuresAtNanos, long successAtNanos, HealthState expected, int total) {
        State state = report(POLICY, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 9, failuresAtNanos);

        state = POLICY.next(state, CallOutcome.SUCCESS, successAtNanos);

        assertThat(state.state()).isEqualTo(expected);
        assertThat(state.windowCalls()).isEqualTo(total);
    }

    @Test
    void advanceDropsExpiredBucketsWithoutJudging() {
        State healthy = report(POLICY, State.INITIAL, CallOutcome.SUCCESS, 10, 0);

        State later = POLICY.advance(healthy, 60 * SECOND);

        assertThat(later.state()).isEqualTo(HealthState.HEALTHY);
        assertThat(later.buckets()).isEmpty();
        assertThat(POLICY.advance(healthy, 60 * SECOND - 1)).isSameAs(healthy);
    }

    @ParameterizedTest(name = "window {0} s, reactivation {1} s: {2} ns after becoming unhealthy -> {3}")
    @CsvSource({
        // configured period shorter than the window: the window applies
        "60, 30,  29999999999, UNHEALTHY",
        "60, 30,  30000000000, UNHEALTHY",
        "60, 30,  59999999999, UNHEALTHY",
        "60, 30,  60000000000, UNKNOWN",
        // configured period longer than the window: it applies
        "60, 90,  60000000000, UNHEALTHY",
        "60, 90,  89999999999, UNHEALTHY",
        "60, 90,  90000000000, UNKNOWN",
        "10, 10,  9999999999,  UNHEALTHY",
        "10, 10,  10000000000, UNKNOWN",
    })
    void advanceReactivatesAfterTheEffectivePeriod(
            long windowSeconds, long periodSeconds, long afterNanos, HealthState expected) {
        TransportFailureRatePolicy policy = new TransportFailureRatePolicy(
                Duration.ofSeconds(windowSeconds), 10, 0.3, Duration.ofSeconds(periodSeconds));
        State unhealthy = report(policy, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 10, 0);

        assertThat(unhealthy.state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(policy.advance(unhealthy, afterNanos).state()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "window {0} s, reactivation {1} s -> effective {2} s")
    @CsvSource({
        "60, 1,   60",
        "60, 60,  60",
        "60, 61,  61",
        "1,  300, 300",
    })
    void effectiveReactivationPeriodIsNeverShorterThanTheWindow(
            long windowSeconds, long periodSeconds, long effectiveSeconds) {
        TransportFailureRatePolicy policy = new TransportFailureRatePolicy(
                Duration.ofSeconds(windowSeconds), 10, 0.3, Duration.ofSeconds(periodSeconds));

        assertThat(policy.effectiveReactivationPeriod()).isEqualTo(Duration.ofSeconds(effectiveSeconds));
    }

    @Test
    void nextWhileUnhealthyKeepsTheTimeItBecameUnhealthy() {
        State unhealthy = report(POLICY, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 10, 0);

        State still = report(POLICY, unhealthy, CallOutcome.TRANSPORT_FAILURE, 10, 30 * SECOND);

        assertThat(still.state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(still.unhealthySinceNanos()).isZero();
    }

    @Test
    void nextAfterReactivationJudgesTheFailuresStillInTheWindowAgain() {
        State unhealthy = report(POLICY, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 10, 0);
        State still = report(POLICY, unhealthy, CallOutcome.TRANSPORT_FAILURE, 10, 30 * SECOND);

        State reactivated = POLICY.advance(still, 60 * SECOND);
        State again = POLICY.next(reactivated, CallOutcome.TRANSPORT_FAILURE, 60 * SECOND);

        assertThat(reactivated.state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(reactivated.windowCalls()).isEqualTo(10);
        assertThat(again.state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(again.unhealthySinceNanos()).isEqualTo(60 * SECOND);
    }

    @Test
    void nextAfterReactivationWithAnEmptyWindowStaysUnknownBelowTheMinimalCount() {
        State unhealthy = report(POLICY, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 10, 0);

        State state = POLICY.next(unhealthy, CallOutcome.TRANSPORT_FAILURE, 60 * SECOND);

        assertThat(state.state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(state.windowCalls()).isEqualTo(1);
    }

    @Test
    void nextKeepsOneBucketPerSecond() {
        State state = report(POLICY, State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 2, 0);
        state = report(POLICY, state, CallOutcome.SUCCESS, 3, SECOND - 1);
        state = report(POLICY, state, CallOutcome.APPLICATION_FAILURE, 1, SECOND);

        assertThat(state.buckets()).containsExactly(new Bucket(0, 5, 2), new Bucket(1, 1, 0));
    }

    @Test
    void nextWhenTimeGoesBackwardsThenCountedInTheLatestBucket() {
        State state = POLICY.next(State.INITIAL, CallOutcome.SUCCESS, 5 * SECOND);

        state = POLICY.next(state, CallOutcome.TRANSPORT_FAILURE, 2 * SECOND);

        assertThat(state.buckets()).containsExactly(new Bucket(5, 2, 1));
    }

    @Test
    void nextWhenRateLimitIsOneThenEveryCallFailingInTransportIsUnhealthy() {
        TransportFailureRatePolicy policy =
                new TransportFailureRatePolicy(Duration.ofSeconds(60), 1, 1.0, Duration.ofSeconds(60));

        assertThat(policy.next(State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 0).state())
                .isEqualTo(HealthState.UNHEALTHY);
    }
}
