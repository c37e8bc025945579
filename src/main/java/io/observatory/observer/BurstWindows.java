package io.observatory.observer;

import io.observatory.health.ActiveHealth;
import io.observatory.health.BurstWindowRule;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.HealthPingStats;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The last judgement of every observed outbound's burst sample window: a window is judged by the
 * {@link BurstWindowRule} once per change (a sample recorded or expired), and republishing for another outbound is no
 * evidence. Confined to the writer; costs one entry of two objects per outbound.
 */
final class BurstWindows {

    private final BurstWindowRule rule;
    private final Map<String, Window> windows = new HashMap<>();
    private final Map<String, Long> recordedSamples = new HashMap<>();

    BurstWindows(BurstWindowRule rule) {
        this.rule = rule;
    }

    /** Notes that a sample of {@code tag} was recorded, so its next window is judged even if its figures repeat. */
    void sampleRecorded(String tag) {
        recordedSamples.merge(tag, 1L, Long::sum);
    }

    /** Forgets outbounds not in {@code tags}. */
    void retain(Set<String> tags) {
        windows.keySet().retainAll(tags);
        recordedSamples.keySet().retainAll(tags);
    }

    /**
     * The outbound's status for its current window, judged anew when the window changed since its last judgement.
     *
     * @param carriedOver the active health to start from (a predecessor observer's), or {@code null} for a new one
     * @param lastFailure the reason of the outbound's last failed sample, or {@code null}
     */
    OutboundStatus status(
            String tag, HealthPingStats stats, @Nullable ActiveHealth carriedOver, @Nullable String lastFailure) {
        long samples = recordedSamples.getOrDefault(tag, 0L);
        Window last = windows.get(tag);
        if (last == null || last.samples() != samples || !last.stats().equals(stats)) {
            ActiveHealth before =
                    last != null ? last.judgement().active() : carriedOver != null ? carriedOver : ActiveHealth.INITIAL;
            last = new Window(samples, stats, rule.judge(before, stats, lastFailure));
            windows.put(tag, last);
        }
        return OutboundStatus.fromBurst(
                tag, stats, last.judgement().active(), last.judgement().detail());
    }

    /** The window an outbound was last judged on, and the judgement. */
    private record Window(long samples, HealthPingStats stats, BurstWindowRule.Judgement judgement) {}
}
