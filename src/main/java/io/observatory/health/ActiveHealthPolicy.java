package io.observatory.health;

/**
 * Judges active probes with hysteresis (Envoy's {@code healthy_threshold}/{@code unhealthy_threshold}, YARP's
 * ConsecutiveFailures): an outbound becomes {@link HealthState#HEALTHY} after {@code healthyThreshold} consecutive
 * successful probes and {@link HealthState#UNHEALTHY} after {@code unhealthyThreshold} consecutive failed ones; below a
 * threshold the previous state stays. A new outbound is {@link HealthState#UNKNOWN} until a threshold is reached, so
 * it is never healthy before {@code healthyThreshold} successes. The defaults (1 and 1) reproduce Xray, whose
 * observatory flips on every probe.
 *
 * @param healthyThreshold   consecutive successes needed for HEALTHY; at least 1
 *                           ({@code observatory.*.healthy-threshold}, validated there)
 * @param unhealthyThreshold consecutive failures needed for UNHEALTHY; at least 1
 *                           ({@code observatory.*.unhealthy-threshold}, validated there)
 */
public record ActiveHealthPolicy(int healthyThreshold, int unhealthyThreshold) {

    /**
     * The health after one more probe. A success resets the failure run and a failure resets the success run.
     *
     * @param previous the health before this probe; {@link ActiveHealth#INITIAL} for a new outbound
     * @param success  whether the probe succeeded (a response arrived and its status is expected, see
     *                 {@link ExpectedStatus})
     * @return the new health; {@code previous.state()} unless the run just reached or exceeds a threshold
     */
    public ActiveHealth next(ActiveHealth previous, boolean success) {
        if (success) {
            int successes = increment(previous.consecutiveSuccesses());
            HealthState state = successes >= healthyThreshold ? HealthState.HEALTHY : previous.state();
            return new ActiveHealth(state, successes, 0);
        }
        int failures = increment(previous.consecutiveFailures());
        HealthState state = failures >= unhealthyThreshold ? HealthState.UNHEALTHY : previous.state();
        return new ActiveHealth(state, 0, failures);
    }

    private static int increment(int count) {
        return count == Integer.MAX_VALUE ? count : count + 1;
    }
}
