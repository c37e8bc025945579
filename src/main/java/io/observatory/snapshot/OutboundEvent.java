package io.observatory.snapshot;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One outbound's change between two published {@link Observation}s: it appeared, its entry was replaced (a state or
 * only the evidence changed), or it left the configuration. Meters follow all three; watchers hear only
 * {@linkplain ObservationUpdate#transitions() transitions}.
 */
public sealed interface OutboundEvent {

    /** The outbound's tag. */
    String tag();

    /** Whether this is a real change of a state (or the outbound appeared or left): what watchers hear. */
    default boolean transition() {
        return true;
    }

    /**
     * The outbound was configured.
     *
     * @param now the outbound in the new observation, all states UNKNOWN
     */
    record Added(OutboundHealth now) implements OutboundEvent {

        public Added {
            Objects.requireNonNull(now, "now");
        }

        @Override
        public String tag() {
            return now.tag();
        }
    }

    /**
     * The outbound's entry was replaced: new probe evidence, passive evidence, or a state change.
     *
     * @param previous the entry in the previous observation
     * @param now      the entry in the new one
     */
    record Updated(OutboundHealth previous, OutboundHealth now) implements OutboundEvent {

        public Updated {
            Objects.requireNonNull(previous, "previous");
            Objects.requireNonNull(now, "now");
        }

        @Override
        public String tag() {
            return now.tag();
        }

        /** True when the active or passive state, a health source's state or the verdict changed. */
        @Override
        public boolean transition() {
            return now.activeState() != previous.activeState()
                    || now.verdict() != previous.verdict()
                    || now.passive().state() != previous.passive().state()
                    || !sameSourceStates(now.sources(), previous.sources());
        }

        private static boolean sameSourceStates(List<SourceHealth> a, List<SourceHealth> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!a.get(i).source().equals(b.get(i).source())
                        || a.get(i).state() != b.get(i).state()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The outbound is no longer configured.
     *
     * @param previous its last entry
     * @param time     wall time of the removal
     */
    record Removed(OutboundHealth previous, Instant time) implements OutboundEvent {

        public Removed {
            Objects.requireNonNull(previous, "previous");
            Objects.requireNonNull(time, "time");
        }

        @Override
        public String tag() {
            return previous.tag();
        }
    }
}
