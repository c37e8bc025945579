package io.observatory.state;

import com.google.protobuf.Timestamp;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.HealthState;
import io.observatory.health.PassivePolicy;
import io.observatory.health.TransportFailureRatePolicy;
import io.observatory.snapshot.CallStatistics;
import io.observatory.snapshot.PassiveEntry;
import io.observatory.state.v1.SavedBucket;
import io.observatory.state.v1.SavedCalls;
import io.observatory.state.v1.SavedPassive;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One outbound's passive evidence to and from the state file's {@code SavedPassive}. The policies' times are ticker
 * readings; they are saved as the wall times they correspond to and restored as this process's ticker readings at
 * those wall times, so an UNHEALTHY state reactivates and a window bucket expires when it would have; a time after
 * this process's clock (another clock, or this one set back) counts as now, never later. A transport-failure-rate
 * bucket moves by whole seconds, keeping the buckets one second apart. About 40 bytes per outbound with reports, plus
 * 12 bytes per bucket of the window.
 */
final class SavedPassives {

    private static final long SECOND_NANOS = TransportFailureRatePolicy.BUCKET_NANOS;

    private SavedPassives() {}

    /**
     * @param taken      the snapshot's wall time
     * @param takenNanos the same moment on the ticker the states' times were read from
     */
    static SavedPassive save(PassiveEntry entry, Instant taken, long takenNanos) {
        PassivePolicy.PassiveState state = entry.state();
        SavedPassive.Builder saved = SavedPassive.newBuilder()
                .setTag(entry.tag())
                .setState(state.state().name())
                .setConsecutiveFailures(state.consecutiveFailures());
        if (state.state() == HealthState.UNHEALTHY) {
            saved.setUnhealthySince(Timestamps.wall(state.unhealthySinceNanos(), taken, takenNanos));
        }
        if (state instanceof TransportFailureRatePolicy.State rate) {
            for (TransportFailureRatePolicy.Bucket bucket : rate.buckets()) {
                saved.addBuckets(SavedBucket.newBuilder()
                        .setSecond(Timestamps.wall(bucket.second() * SECOND_NANOS, taken, takenNanos))
                        .setTotal(bucket.total())
                        .setFailed(bucket.failed()));
            }
        }
        CallStatistics calls = entry.calls();
        if (calls != null) {
            saved.setCalls(SavedCalls.newBuilder()
                    .setTotalCalls(calls.totalCalls())
                    .setFailedCalls(calls.failedCalls())
                    .setAverageLatencyNanos(calls.averageLatencyNanos())
                    .setFirstCall(Timestamps.of(calls.firstCall()))
                    .setLastCall(Timestamps.of(calls.lastCall())));
        }
        return saved.build();
    }

    /**
     * The entry, its times on this process's ticker.
     *
     * @param policy   the name of the policy the saved state is a state of
     * @param now      this process's wall clock
     * @param nowNanos the same moment on its ticker
     * @throws IllegalArgumentException for a policy or state name this build does not know
     */
    static PassiveEntry restore(SavedPassive saved, String policy, Instant now, long nowNanos) {
        HealthState state = HealthState.valueOf(saved.getState());
        long unhealthySince = saved.hasUnhealthySince() ? ticker(saved.getUnhealthySince(), now, nowNanos) : 0;
        PassivePolicy.PassiveState restored = switch (policy) {
            case "consecutive-failures" ->
                new ConsecutiveFailuresPolicy.State(state, saved.getConsecutiveFailures(), unhealthySince);
            case "transport-failure-rate" -> {
                List<TransportFailureRatePolicy.Bucket> buckets = new ArrayList<>(saved.getBucketsCount());
                long shift = saved.getBucketsCount() == 0
                        ? 0
                        : Math.floorDiv(ticker(saved.getBuckets(0).getSecond(), now, nowNanos), SECOND_NANOS)
                                - saved.getBuckets(0).getSecond().getSeconds();
                if (saved.getBucketsCount() > 0) {
                    // Buckets saved by a clock ahead of this one end at this second, not after it.
                    long newest = saved.getBuckets(saved.getBucketsCount() - 1)
                                    .getSecond()
                                    .getSeconds()
                            + shift;
                    shift -= Math.max(0, newest - Math.floorDiv(nowNanos, SECOND_NANOS));
                }
                for (SavedBucket bucket : saved.getBucketsList()) {
                    buckets.add(new TransportFailureRatePolicy.Bucket(
                            bucket.getSecond().getSeconds() + shift, bucket.getTotal(), bucket.getFailed()));
                }
                yield new TransportFailureRatePolicy.State(state, buckets, unhealthySince);
            }
            default ->
                throw new IllegalArgumentException("passive policy " + policy + " (this build knows"
                        + " consecutive-failures and transport-failure-rate)");
        };
        CallStatistics calls = null;
        if (saved.hasCalls()) {
            SavedCalls c = saved.getCalls();
            calls = new CallStatistics(
                    c.getTotalCalls(),
                    c.getFailedCalls(),
                    c.getAverageLatencyNanos(),
                    Timestamps.instant(c.getFirstCall()),
                    Timestamps.instant(c.getLastCall()));
        }
        return new PassiveEntry(saved.getTag(), restored, calls);
    }

    /** This process's ticker reading at the wall time {@code at}; {@code nowNanos} for a time after {@code now}. */
    private static long ticker(Timestamp at, Instant now, long nowNanos) {
        return nowNanos - Timestamps.ageNanos(at, now);
    }
}
