package io.observatory.pick;

import io.observatory.stats.HealthPingStats;
import java.time.Duration;

/** Candidates for the pick tests. */
final class Candidates {

    private Candidates() {}

    /** An alive standard-observer outbound with this delay. */
    static PickCandidate alive(String tag, long delayMillis) {
        return new PickCandidate(tag, true, delayMillis, null);
    }

    /** A dead standard-observer outbound, with Xray's dead delay. */
    static PickCandidate dead(String tag) {
        return new PickCandidate(tag, false, 99_999_999L, null);
    }

    /** An alive burst-observer outbound: delay = average, with the given deviation and sample counts. */
    static PickCandidate burst(String tag, long deviationMillis, long averageMillis, int fail, int all) {
        HealthPingStats stats = new HealthPingStats(
                all,
                fail,
                millisToNanos(deviationMillis),
                millisToNanos(averageMillis),
                millisToNanos(averageMillis),
                millisToNanos(averageMillis));
        return new PickCandidate(tag, true, averageMillis, stats);
    }

    private static long millisToNanos(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }
}
