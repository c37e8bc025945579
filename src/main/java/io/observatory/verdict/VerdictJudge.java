package io.observatory.verdict;

import io.observatory.health.CombinedVerdict;
import io.observatory.health.HealthState;
import io.observatory.status.OutboundStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The transition function of one outbound's health: the previous entry plus new evidence gives the next entry, with
 * the combined verdict ({@link CombinedVerdict}) and, when a state changed, the change time and a reason naming what
 * changed. Pure.
 */
final class VerdictJudge {

    private VerdictJudge() {
    }

    /**
     * @param tag        the outbound
     * @param status     the observer's status, or {@code null} while none
     * @param passive    the passive view after the new evidence
     * @param passiveWhy why the passive state is what it is; asked only when it changed
     * @param before     the previous entry, or {@code null} for an outbound just configured
     * @param now        wall time of this judgement
     * @return the next entry; {@code before}'s change time and reason are kept when no state changed
     */
    static OutboundHealth judge(String tag, OutboundStatus status, PassiveView passive, Supplier<String> passiveWhy,
            OutboundHealth before, Instant now) {
        HealthState active = status == null ? HealthState.UNKNOWN : status.active().state();
        HealthState verdict = CombinedVerdict.of(active, passive.state());
        if (before == null) {
            return new OutboundHealth(tag, status, passive, verdict, now, "outbound added");
        }
        List<String> reasons = new ArrayList<>(2);
        if (active != before.activeState()) {
            reasons.add("active " + word(before.activeState()) + " -> " + word(active) + ": "
                    + (status == null ? "no longer observed" : status.activeDetail()));
        }
        if (passive.state() != before.passive().state()) {
            reasons.add("passive " + word(before.passive().state()) + " -> " + word(passive.state()) + ": "
                    + passiveWhy.get());
        }
        if (reasons.isEmpty()) {
            return new OutboundHealth(tag, status, passive, verdict, before.lastChange(), before.lastChangeReason());
        }
        return new OutboundHealth(tag, status, passive, verdict, now, String.join("; ", reasons));
    }

    /** A state as log lines and reasons write it: {@code healthy}, {@code unhealthy}, {@code unknown}. */
    static String word(HealthState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
