package io.observatory.snapshot;

import io.observatory.health.CombinedVerdict;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each change of an outbound's verdict, active or passive state once at INFO, with stable wording:
 * {@code outbound <tag>: <old verdict> -> <new verdict> (<what changed>: <why>)}, or
 * {@code outbound <tag>: still <verdict> (...)} when only the active or passive state changed. Outbounds that appear
 * or leave are not logged here (the configuration and the observer say so).
 */
final class TransitionLog implements Consumer<ObservationUpdate> {

    private static final Logger log = LoggerFactory.getLogger(TransitionLog.class);

    @Override
    public void accept(ObservationUpdate update) {
        for (OutboundEvent event : update.transitions()) {
            if (event instanceof OutboundEvent.Updated updated) {
                OutboundHealth before = updated.previous();
                OutboundHealth after = updated.now();
                String verdict = before.verdict() == after.verdict()
                        ? "still " + CombinedVerdict.word(after.verdict())
                        : CombinedVerdict.word(before.verdict()) + " -> " + CombinedVerdict.word(after.verdict());
                log.info("outbound {}: {} ({})", after.tag(), verdict, after.lastChangeReason());
            }
        }
    }
}
