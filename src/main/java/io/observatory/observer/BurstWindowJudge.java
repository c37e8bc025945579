package io.observatory.observer;

import io.observatory.config.BurstObserverSettings;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.stats.HealthPingStats;
import io.observatory.status.OutboundStatus;
import io.observatory.status.StatusMapping;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Judges each outbound's burst sample window for the active state: once per change of the window (a sample recorded
 * or expired), it passes with at least one valid success and a failure ratio at or below {@code max-failure-ratio},
 * and the {@link ActiveCheck}'s thresholds count consecutive judgements. Republishing for another outbound is no
 * evidence. Confined to the observer's writer thread.
 */
final class BurstWindowJudge {

    private final ActiveCheck check;
    private final OptionalDouble maxFailureRatio;
    private final Map<String, Judgement> judgements = new HashMap<>();
    private final Map<String, Long> recordedSamples = new HashMap<>();

    BurstWindowJudge(BurstObserverSettings settings) {
        this.check = settings.activeCheck();
        this.maxFailureRatio = settings.maxFailureRatio();
    }

    /** Notes that a sample of {@code tag} was recorded, so its next window is judged even if its figures repeat. */
    void sampleRecorded(String tag) {
        recordedSamples.merge(tag, 1L, Long::sum);
    }

    /** Forgets outbounds not in {@code tags}. */
    void retain(Set<String> tags) {
        judgements.keySet().retainAll(tags);
        recordedSamples.keySet().retainAll(tags);
    }

    /**
     * The outbound's status for its current window.
     *
     * @param carriedOver the active health to start from (a predecessor observer's), or {@code null} for a new one
     * @param lastFailure the reason of the outbound's last failed sample, or {@code null}
     */
    OutboundStatus status(String tag, HealthPingStats stats, ActiveHealth carriedOver, String lastFailure) {
        long samples = recordedSamples.getOrDefault(tag, 0L);
        Judgement last = judgements.get(tag);
        if (last == null || last.samples() != samples || !last.stats().equals(stats)) {
            ActiveHealth before = last != null ? last.active()
                    : carriedOver != null ? carriedOver : ActiveHealth.INITIAL;
            ActiveHealth active = check.thresholds().next(before,
                    StatusMapping.burstWindowPasses(stats, maxFailureRatio));
            String detail = StatusMapping.burstDetail(stats, maxFailureRatio);
            if (stats.fail() > 0 && lastFailure != null) {
                detail += "; last failure: " + lastFailure;
            }
            last = new Judgement(samples, stats, active, detail);
            judgements.put(tag, last);
        }
        return StatusMapping.fromBurst(tag, stats, last.active(), last.detail());
    }

    /** The window an outbound was last judged on, and the result. */
    private record Judgement(long samples, HealthPingStats stats, ActiveHealth active, String detail) {
    }
}
