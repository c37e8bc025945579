package io.observatory.health;

import com.google.common.math.LongMath;
import io.observatory.text.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Passive health from the rate of transport failures over a sliding window (YARP's {@code TransportFailureRate}
 * policy; {@code observatory.passive.transport-failure-rate}). Calls are counted in 1 s buckets; a bucket leaves the
 * detection window once {@code detectionWindow} has passed since the start of its second. Only
 * {@link CallOutcome#TRANSPORT_FAILURE} counts as failed; every reported call counts toward the total. While the
 * window holds fewer than {@code minimalTotalCount} calls nothing is judged and the previous state stays; otherwise the
 * outbound is {@link HealthState#UNHEALTHY} when failed/total reaches {@code failureRateLimit} and
 * {@link HealthState#HEALTHY} below it (YARP compares with {@code <}). An UNHEALTHY state is reset to
 * {@link HealthState#UNKNOWN} once the effective reactivation period has passed since it became UNHEALTHY; the
 * effective period is never shorter than the detection window, so the failures that caused it have left the window.
 *
 * <p>Readings for one outbound must not go backwards; an earlier reading is counted in the latest bucket. The
 * parameters are validated where they are configured ({@code io.observatory.config.TransportFailureRateSettings}).
 *
 * @param detectionWindow    length of the sliding window; a whole number of seconds, at least 1 s
 *                           ({@code detection-window})
 * @param minimalTotalCount  calls the window must hold before judging; at least 1 ({@code minimal-total-count})
 * @param failureRateLimit   failed/total ratio at and above which the outbound is UNHEALTHY; in (0, 1]
 *                           ({@code failure-rate-limit})
 * @param reactivationPeriod time after becoming UNHEALTHY before the state returns to UNKNOWN; positive, raised to
 *                           {@code detectionWindow} when shorter ({@code reactivation-period})
 */
public record TransportFailureRatePolicy(
        Duration detectionWindow, int minimalTotalCount, double failureRateLimit, Duration reactivationPeriod)
        implements PassivePolicy<TransportFailureRatePolicy.State> {

    /** Width of one bucket of the detection window: 1 s, in nanoseconds. */
    public static final long BUCKET_NANOS = Duration.ofSeconds(1).toNanos();

    @Override
    public String name() {
        return "transport-failure-rate";
    }

    @Override
    public State initial() {
        return State.INITIAL;
    }

    @Override
    public String describe(State state) {
        return state.windowFailures() + "/" + state.windowCalls() + " calls in the "
                + GoDuration.format(detectionWindow) + " window failed in transport (limit " + failureRateLimit
                + ", minimal total count " + minimalTotalCount + ")";
    }

    /** The reactivation period actually applied: the longer of {@code reactivationPeriod} and the detection window. */
    @Override
    public Duration effectiveReactivationPeriod() {
        return reactivationPeriod.compareTo(detectionWindow) < 0 ? detectionWindow : reactivationPeriod;
    }

    /**
     * Calls counted in one second of the window.
     *
     * @param second {@code floorDiv(nanos, BUCKET_NANOS)} of the calls it counts
     * @param total  calls of any outcome
     * @param failed transport failures among them
     */
    public record Bucket(long second, int total, int failed) {}

    /**
     * Immutable passive state of one outbound under this policy.
     *
     * @param state               current passive state
     * @param buckets             non-empty buckets still in the window, oldest first
     * @param unhealthySinceNanos see {@link PassiveState#unhealthySinceNanos()}; {@code 0} unless UNHEALTHY
     */
    public record State(HealthState state, List<Bucket> buckets, long unhealthySinceNanos) implements PassiveState {

        /** The state of an outbound no call was reported for: UNKNOWN, empty window. */
        public static final State INITIAL = new State(HealthState.UNKNOWN, List.of(), 0);

        /** Copies {@code buckets}. */
        public State {
            Objects.requireNonNull(state, "state");
            buckets = List.copyOf(buckets);
        }

        /** Calls of any outcome in the window. */
        @Override
        public int windowCalls() {
            return buckets.stream().mapToInt(Bucket::total).sum();
        }

        /** Transport failures in the window. */
        @Override
        public int windowFailures() {
            return buckets.stream().mapToInt(Bucket::failed).sum();
        }
    }

    @Override
    public State next(State previous, CallOutcome outcome, long nowNanos) {
        State current = advance(previous, nowNanos);
        List<Bucket> buckets = new ArrayList<>(current.buckets());
        int failed = outcome == CallOutcome.TRANSPORT_FAILURE ? 1 : 0;
        long second = Math.floorDiv(nowNanos, BUCKET_NANOS);
        Bucket last = buckets.isEmpty() ? null : buckets.get(buckets.size() - 1);
        if (last != null && last.second() >= second) {
            buckets.set(buckets.size() - 1, new Bucket(last.second(), last.total() + 1, last.failed() + failed));
        } else {
            buckets.add(new Bucket(second, 1, failed));
        }
        State counted = new State(current.state(), buckets, current.unhealthySinceNanos());
        int total = counted.windowCalls();
        if (total < minimalTotalCount) {
            return counted;
        }
        if ((double) counted.windowFailures() / total < failureRateLimit) {
            return new State(HealthState.HEALTHY, buckets, 0);
        }
        long since = current.state() == HealthState.UNHEALTHY ? current.unhealthySinceNanos() : nowNanos;
        return new State(HealthState.UNHEALTHY, buckets, since);
    }

    /**
     * Buckets whose second started {@code detectionWindow} or more before {@code nowNanos}'s second leave the window,
     * and UNHEALTHY becomes UNKNOWN once the effective reactivation period has passed; expiry alone never changes a
     * HEALTHY or UNKNOWN state, only a new call judges.
     */
    @Override
    public State advance(State previous, long nowNanos) {
        long oldestKept = Math.floorDiv(nowNanos, BUCKET_NANOS) - detectionWindow.toSeconds() + 1;
        List<Bucket> kept = previous.buckets().stream()
                .filter(bucket -> bucket.second() >= oldestKept)
                .toList();
        boolean reactivated = previous.state() == HealthState.UNHEALTHY
                && nowNanos - previous.unhealthySinceNanos()
                        >= effectiveReactivationPeriod().toNanos();
        if (reactivated) {
            return new State(HealthState.UNKNOWN, kept, 0);
        }
        if (kept.size() == previous.buckets().size()) {
            return previous;
        }
        return new State(previous.state(), kept, previous.unhealthySinceNanos());
    }

    /**
     * The earlier of its oldest bucket leaving the window (the start of the second {@code detectionWindow} after the
     * bucket's) and, while UNHEALTHY, its reactivation.
     */
    @Override
    public long nextChangeNanos(State state) {
        long next = Long.MAX_VALUE;
        if (!state.buckets().isEmpty()) {
            long leaves = LongMath.saturatedAdd(state.buckets().get(0).second(), detectionWindow.toSeconds());
            next = LongMath.saturatedMultiply(leaves, BUCKET_NANOS);
        }
        return Math.min(next, reactivationNanos(state));
    }
}
