package io.observatory.health;

import io.observatory.stats.HealthPingStats;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * Judges an outbound's burst sample window for the active state: it passes with at least one valid success (Xray's
 * alive rule, {@code app/observatory/burst/healthping_result.go}) and, when a maximum is set, a failure ratio
 * {@code fail / all} at or below it. The {@link ActiveCheck}'s thresholds count consecutive judgements; the observer
 * judges once per change of the window (a sample recorded or expired), so republishing is no evidence.
 *
 * @param check           the expected statuses of samples and the thresholds
 * @param maxFailureRatio failed/all over the valid samples above which the window fails, in [0, 1]; empty keeps only
 *                        Xray's rule ({@code max-failure-ratio})
 */
public record BurstWindowRule(ActiveCheck check, OptionalDouble maxFailureRatio) {

    /**
     * The judgement of a window after {@code before}.
     *
     * @param before      the active health before this window: the previous judgement's, a predecessor observer's, or
     *                    {@link ActiveHealth#INITIAL}
     * @param stats       the window
     * @param lastFailure the reason of the outbound's last failed sample, or {@code null}
     */
    public Judgement judge(ActiveHealth before, HealthPingStats stats, @Nullable String lastFailure) {
        String detail = describe(stats);
        if (stats.fail() > 0 && lastFailure != null) {
            detail += "; last failure: " + lastFailure;
        }
        return new Judgement(check.thresholds().next(before, passes(stats)), detail);
    }

    /** Whether a window passes: at least one valid success and a failure ratio at or below the maximum, if set. */
    public boolean passes(HealthPingStats stats) {
        return stats.alive()
                && (maxFailureRatio.isEmpty() || (double) stats.fail() / stats.all() <= maxFailureRatio.getAsDouble());
    }

    /** One line describing a window, e.g. {@code 3/10 samples failed} or {@code no valid sample left}. */
    public String describe(HealthPingStats stats) {
        if (stats.all() == 0) {
            return "no valid sample left";
        }
        String detail = stats.fail() + "/" + stats.all() + " samples failed";
        if (maxFailureRatio.isPresent()) {
            detail += " (max-failure-ratio " + maxFailureRatio.getAsDouble() + ")";
        }
        return stats.alive() ? detail + ", average " + stats.averageNanos() / 1_000_000 + " ms" : detail;
    }

    /**
     * One judgement of a window.
     *
     * @param active the active health after it
     * @param detail one line on the window, the reason a change of the active state is reported with
     */
    public record Judgement(ActiveHealth active, String detail) {}
}
