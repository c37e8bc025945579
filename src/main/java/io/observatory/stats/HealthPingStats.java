package io.observatory.stats;

/**
 * RTT statistics over the valid samples of one outbound, as Xray's burst observer computes them
 * ({@code HealthPingStats} in {@code app/observatory/burst/healthping_result.go}).
 *
 * @param all valid samples: successes plus failures
 * @param fail valid failed samples
 * @param deviationNanos population standard deviation of the successful RTTs; with exactly one success, half of the
 *     average (so a single lucky sample does not look perfectly stable); 0 without successes
 * @param averageNanos integer mean of the successful RTTs; 0 without successes
 * @param maxNanos largest successful RTT; 0 without successes
 * @param minNanos smallest successful RTT; 0 without successes
 */
public record HealthPingStats(int all, int fail, long deviationNanos, long averageNanos, long maxNanos, long minNanos) {

    /** No valid sample at all. */
    public static final HealthPingStats EMPTY = new HealthPingStats(0, 0, 0, 0, 0, 0);

    /** Xray's alive rule: at least one valid success ({@code all != fail}); no valid sample means not alive. */
    public boolean alive() {
        return all != fail;
    }
}
