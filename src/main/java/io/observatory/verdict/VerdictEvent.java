package io.observatory.verdict;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.Objects;

/** A real change of one outbound, as watchers hear it: a state changed, the outbound appeared, or it was removed. */
public sealed interface VerdictEvent {

    /** The outbound's tag. */
    String tag();

    /**
     * An outbound's active state, passive state or verdict changed, or the outbound appeared (then the previous
     * states are {@code null}).
     *
     * @param now             the outbound after the change
     * @param previousVerdict the verdict before, {@code null} for a new outbound
     * @param previousActive  the active state before, {@code null} for a new outbound
     * @param previousPassive the passive state before, {@code null} for a new outbound
     */
    record Changed(OutboundHealth now, HealthState previousVerdict, HealthState previousActive,
            HealthState previousPassive) implements VerdictEvent {

        public Changed {
            Objects.requireNonNull(now, "now");
        }

        @Override
        public String tag() {
            return now.tag();
        }
    }

    /**
     * An outbound is no longer configured.
     *
     * @param tag  its tag
     * @param time wall time of the removal
     */
    record Removed(String tag, Instant time) implements VerdictEvent {

        public Removed {
            Objects.requireNonNull(tag, "tag");
            Objects.requireNonNull(time, "time");
        }
    }
}
