package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ConsecutiveFailuresPolicy.State;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsecutiveFailuresPolicyTest {

    /** silky's threshold of 3 and YARP's reactivation period of 60 s. */
    private static final ConsecutiveFailuresPolicy SILKY = new ConsecutiveFailuresPolicy(3, Duration.ofSeconds(60));

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    /**
     * Calls as a string, one second apart from t = 1 s: {@code S} success, {@code T} transport failure, {@code A}
     * application failure.
     */
    private static State run(ConsecutiveFailuresPolicy policy, String calls) {
        State state = State.INITIAL;
        long now = SECOND;
        for (char call : calls.toCharArray()) {
            state = policy.next(state, outcome(call), now);
            now += SECOND;
        }
        return state;
    }

    static CallOutcome outcome(char call) {
        return switch (call) {
            case 'S' -> CallOutcome.SUCCESS;
            case 'T' -> CallOutcome.TRANSPORT_FAILURE;
            case 'A' -> CallOutcome.APPLICATION_FAILURE;
            default -> throw new IllegalArgumentException(String.valueOf(call));
        };
    }

    @ParameterizedTest(name = "ceiling {0}: {1} -> {2}")
    @CsvSource({
        "3, '',     UNKNOWN,   0",
        "3, S,      HEALTHY,   0",
        // ceiling - 1 keeps the previous state, the ceiling flips it; both failure kinds count (silky)
        "3, TT,     UNKNOWN,   2",
        "3, TTT,    UNHEALTHY, 3",
        "3, TAT,    UNHEALTHY, 3",
        "3, AAA,    UNHEALTHY, 3",
        "3, STT,    HEALTHY,   2",
        "3, STTT,   UNHEALTHY, 3",
        "3, STTTT,  UNHEALTHY, 4",
        // an interleaved success resets the run
        "3, TTSTT,  HEALTHY,   2",
        "3, TTSTTT, UNHEALTHY, 3",
        // a success makes an unhealthy outbound healthy again
        "3, TTTS,   HEALTHY,   0",
        // 0 means the first failure, as does 1
        "0, T,      UNHEALTHY, 1",
        "0, A,      UNHEALTHY, 1",
        "0, S,      HEALTHY,   0",
        "1, ST,     UNHEALTHY, 1",
    })
    void nextFollowsTheThreshold(int threshold, String calls, HealthState state, int failures) {
        State result = run(new ConsecutiveFailuresPolicy(threshold, Duration.ofSeconds(60)), calls);

        assertThat(result.state()).isEqualTo(state);
        assertThat(result.consecutiveFailures()).isEqualTo(failures);
    }

    @Test
    void nextWhenUnhealthyAndFailuresContinueThenUnhealthySinceIsTheFirstTransition() {
        ConsecutiveFailuresPolicy policy = SILKY;

        State state = run(policy, "TTTTT");

        assertThat(state.unhealthySinceNanos()).isEqualTo(3 * SECOND);
    }

    @ParameterizedTest(name = "{0} s after becoming unhealthy -> {1}")
    @CsvSource({
        "0,  UNHEALTHY",
        "59, UNHEALTHY",
        "60, UNKNOWN",
        "61, UNKNOWN",
    })
    void advanceResetsUnhealthyToUnknownAfterTheReactivationPeriod(long seconds, HealthState expected) {
        ConsecutiveFailuresPolicy policy = new ConsecutiveFailuresPolicy(1, Duration.ofSeconds(60));
        State unhealthy = policy.next(State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 5 * SECOND);

        State state = policy.advance(unhealthy, 5 * SECOND + seconds * SECOND);

        assertThat(state.state()).isEqualTo(expected);
    }

    @Test
    void advanceAtExactlyThePeriodMinusOneNanoKeepsUnhealthy() {
        ConsecutiveFailuresPolicy policy = new ConsecutiveFailuresPolicy(1, Duration.ofSeconds(60));
        State unhealthy = policy.next(State.INITIAL, CallOutcome.TRANSPORT_FAILURE, 0);

        assertThat(policy.advance(unhealthy, 60 * SECOND - 1)).isSameAs(unhealthy);
        assertThat(policy.advance(unhealthy, 60 * SECOND)).isEqualTo(State.INITIAL);
    }

    @ParameterizedTest(name = "failure {0} s after becoming unhealthy -> {1} with run {2}")
    @CsvSource({
        // before the period the run continues
        "59, UNHEALTHY, 4",
        // after it the run restarts from reactivation: threshold 3 needs three new failures
        "60, UNKNOWN,   1",
    })
    void nextAfterReactivationCountsAFreshRun(long seconds, HealthState expected, int failures) {
        ConsecutiveFailuresPolicy policy = SILKY;
        State unhealthy = run(policy, "TTT");

        State state = policy.next(unhealthy, CallOutcome.TRANSPORT_FAILURE, 3 * SECOND + seconds * SECOND);

        assertThat(state.state()).isEqualTo(expected);
        assertThat(state.consecutiveFailures()).isEqualTo(failures);
    }

    @Test
    void advanceWhenNotUnhealthyThenUnchanged() {
        State healthy = run(SILKY, "S");

        assertThat(SILKY.advance(healthy, Long.MAX_VALUE)).isSameAs(healthy);
    }

    @Test
    void advanceAcrossNanoTimeOverflowUsesDifferences() {
        ConsecutiveFailuresPolicy policy = new ConsecutiveFailuresPolicy(1, Duration.ofSeconds(60));
        State unhealthy = policy.next(State.INITIAL, CallOutcome.TRANSPORT_FAILURE, Long.MAX_VALUE - SECOND);

        assertThat(policy.advance(unhealthy, Long.MAX_VALUE - SECOND + 59 * SECOND)
                        .state())
                .isEqualTo(HealthState.UNHEALTHY);
        assertThat(policy.advance(unhealthy, Long.MAX_VALUE - SECOND + 60 * SECOND)
                        .state())
                .isEqualTo(HealthState.UNKNOWN);
    }
}
