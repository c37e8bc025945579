package io.observatory.health;

import java.util.Objects;

/**
 * Immutable active-probe health of one outbound: the state and the length of the current run of successes or
 * failures, as {@link ActiveHealthPolicy#next} needs them. At most one of the two counters is non-zero.
 *
 * @param state               current active state; {@link HealthState#UNKNOWN} until a threshold is reached
 * @param consecutiveSuccesses successful probes since the last failure (saturates at {@link Integer#MAX_VALUE})
 * @param consecutiveFailures  failed probes since the last success (saturates at {@link Integer#MAX_VALUE})
 */
public record ActiveHealth(HealthState state, int consecutiveSuccesses, int consecutiveFailures) {

    /** The health of an outbound that was never probed: UNKNOWN, no successes, no failures. */
    public static final ActiveHealth INITIAL = new ActiveHealth(HealthState.UNKNOWN, 0, 0);

    /**
     * @throws NullPointerException     if {@code state} is null
     * @throws IllegalArgumentException if a counter is negative or both are positive
     */
    public ActiveHealth {
        Objects.requireNonNull(state, "state");
        if (consecutiveSuccesses < 0
                || consecutiveFailures < 0
                || (consecutiveSuccesses > 0 && consecutiveFailures > 0)) {
            throw new IllegalArgumentException("consecutive successes/failures: " + consecutiveSuccesses + "/"
                    + consecutiveFailures + " (expected: >= 0 and at most one of them > 0)");
        }
    }
}
