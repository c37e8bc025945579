package io.observatory.snapshot;

import io.observatory.health.CallOutcome;
import java.time.Instant;
import java.util.Objects;

/**
 * Statistics of the calls balancers reported through one outbound, as silky's endpoint monitor keeps them: counts,
 * a moving average of the latency and the first and last call times. Immutable.
 *
 * @param totalCalls          accepted reports
 * @param failedCalls         reports of a failed call, of either kind
 * @param averageLatencyNanos cumulative moving average of the reported latencies, in nanoseconds
 * @param firstCall           end time of the earliest reported call
 * @param lastCall            end time of the latest reported call
 */
public record CallStatistics(
        long totalCalls, long failedCalls, long averageLatencyNanos, Instant firstCall, Instant lastCall) {

    /** @throws NullPointerException if a time is null */
    public CallStatistics {
        Objects.requireNonNull(firstCall, "firstCall");
        Objects.requireNonNull(lastCall, "lastCall");
    }

    /** The statistics of a single call. */
    public static CallStatistics first(CallOutcome outcome, long latencyNanos, Instant endedAt) {
        return new CallStatistics(1, outcome.failed() ? 1 : 0, latencyNanos, endedAt, endedAt);
    }

    /** These statistics with one more call; the average moves by {@code (latency - average) / total}. */
    public CallStatistics plus(CallOutcome outcome, long latencyNanos, Instant endedAt) {
        long total = totalCalls + 1;
        long average = averageLatencyNanos + (latencyNanos - averageLatencyNanos) / total;
        return new CallStatistics(
                total,
                failedCalls + (outcome.failed() ? 1 : 0),
                average,
                endedAt.isBefore(firstCall) ? endedAt : firstCall,
                endedAt.isAfter(lastCall) ? endedAt : lastCall);
    }
}
