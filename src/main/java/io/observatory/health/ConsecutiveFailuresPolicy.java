package io.observatory.health;

import java.time.Duration;
import java.util.Objects;

/**
 * Passive health from consecutive failed calls (silky's endpoint monitor, {@code unHealthCeilingTimes};
 * {@code observatory.passive.consecutive-failures}): every failed call, of either kind, extends the run
 * and a successful call ends it and makes the outbound {@link HealthState#HEALTHY}. When the run reaches the threshold
 * the outbound becomes {@link HealthState#UNHEALTHY}; below it the previous state stays. An UNHEALTHY state is reset
 * to {@link HealthState#UNKNOWN} (with the run cleared) once the reactivation period has passed since it became
 * UNHEALTHY (YARP's reactivation; silky instead removes the endpoint until it registers again).
 *
 * @param threshold          consecutive failures that make the outbound UNHEALTHY; at least 0, {@code 0} (like 1)
 *                           means the first failure ({@code threshold}, validated there)
 * @param reactivationPeriod time after becoming UNHEALTHY before the state returns to UNKNOWN; positive
 *                           ({@code reactivation-period}, validated there)
 */
public record ConsecutiveFailuresPolicy(int threshold, Duration reactivationPeriod)
        implements PassivePolicy<ConsecutiveFailuresPolicy.State> {

    /**
     * Immutable passive state of one outbound under this policy.
     *
     * @param state               current passive state
     * @param consecutiveFailures failed calls since the last success or reactivation (saturates at
     *                            {@link Integer#MAX_VALUE})
     * @param unhealthySinceNanos see {@link PassiveState#unhealthySinceNanos()}; {@code 0} unless UNHEALTHY
     */
    public record State(HealthState state, int consecutiveFailures, long unhealthySinceNanos) implements PassiveState {

        /** The state of an outbound no call was reported for: UNKNOWN, no failures. */
        public static final State INITIAL = new State(HealthState.UNKNOWN, 0, 0);

        /** @throws IllegalArgumentException if {@code consecutiveFailures} is negative */
        public State {
            Objects.requireNonNull(state, "state");
            if (consecutiveFailures < 0) {
                throw new IllegalArgumentException(
                        "consecutive failures: " + consecutiveFailures + " (expected: >= 0)");
            }
        }
    }

    @Override
    public String name() {
        return "consecutive-failures";
    }

    @Override
    public State initial() {
        return State.INITIAL;
    }

    @Override
    public String describe(State state) {
        return state.state() == HealthState.HEALTHY
                ? "a call succeeded"
                : state.consecutiveFailures() + " consecutive failed calls (threshold " + threshold + ")";
    }

    /** The reactivation period itself: this policy has no window to wait for. */
    @Override
    public Duration effectiveReactivationPeriod() {
        return reactivationPeriod;
    }

    @Override
    public State next(State previous, CallOutcome outcome, long nowNanos) {
        State current = advance(previous, nowNanos);
        if (!outcome.failed()) {
            return new State(HealthState.HEALTHY, 0, 0);
        }
        int failures = current.consecutiveFailures() == Integer.MAX_VALUE
                ? Integer.MAX_VALUE
                : current.consecutiveFailures() + 1;
        if (current.state() == HealthState.UNHEALTHY) {
            return new State(HealthState.UNHEALTHY, failures, current.unhealthySinceNanos());
        }
        if (failures >= threshold) {
            return new State(HealthState.UNHEALTHY, failures, nowNanos);
        }
        return new State(current.state(), failures, 0);
    }

    @Override
    public State advance(State previous, long nowNanos) {
        if (previous.state() == HealthState.UNHEALTHY
                && nowNanos - previous.unhealthySinceNanos() >= reactivationPeriod.toNanos()) {
            return State.INITIAL;
        }
        return previous;
    }

    /** Its reactivation while UNHEALTHY; nothing else changes with time. */
    @Override
    public long nextChangeNanos(State state) {
        return reactivationNanos(state);
    }
}
