package io.observatory.pick;

import io.observatory.snapshot.OutboundStatus;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Least-ping: the alive outbound with the smallest delay, as Xray's {@code LeastPingStrategy} chooses it
 * ({@code app/router/strategy_leastping.go}).
 */
final class LeastPing {

    /**
     * Smallest delay first; on equal delays the tag that sorts first. A choice of this service, so that equal answers
     * repeat: Xray keeps the first in its status order (first-probe order for the standard observer, map order for
     * burst).
     */
    private static final Comparator<PickCandidate> FASTEST_FIRST =
            Comparator.comparingLong(PickCandidate::delayMillis).thenComparing(PickCandidate::tag);

    private LeastPing() {}

    /**
     * Returns the tag of the alive candidate with the smallest delay; candidates reporting the dead delay
     * ({@value OutboundStatus#DEAD_DELAY_MILLIS} ms) or more are never chosen, as in Xray, where that value is the
     * starting bound of a strict "less than" search.
     *
     * @return the tag, or empty when no candidate is alive
     */
    static Optional<String> pick(List<PickCandidate> candidates) {
        return candidates.stream()
                .filter(candidate -> candidate.alive() && candidate.delayMillis() < OutboundStatus.DEAD_DELAY_MILLIS)
                .min(FASTEST_FIRST)
                .map(PickCandidate::tag);
    }
}
