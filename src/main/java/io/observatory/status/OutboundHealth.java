package io.observatory.status;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One configured outbound in the {@link Observation}: the observer's status (active state and probe evidence), the
 * passive state and call statistics, the combined verdict and its last change. Immutable.
 *
 * @param tag              the outbound's tag
 * @param probe            the observer's status, or {@code null} while no observer has produced one (never probed,
 *                         or not selected by the observer)
 * @param passive          the passive state and call statistics
 * @param verdict          {@link io.observatory.health.CombinedVerdict} of the active and passive states
 * @param lastChange       wall time the verdict, the active or the passive state last changed (or the outbound
 *                         appeared)
 * @param lastChangeReason why, e.g. {@code active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms}
 */
public record OutboundHealth(String tag, @Nullable OutboundStatus probe, PassiveView passive, HealthState verdict,
        Instant lastChange, String lastChangeReason) {

    public OutboundHealth {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(passive, "passive");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(lastChange, "lastChange");
        Objects.requireNonNull(lastChangeReason, "lastChangeReason");
    }

    /** The active state: the observer's, UNKNOWN while not probed. */
    public HealthState activeState() {
        return probe == null ? HealthState.UNKNOWN : probe.active().state();
    }

    /** Whether an observer has produced a status for the outbound. */
    public boolean probed() {
        return probe != null;
    }

    /**
     * Xray's {@code alive} as the APIs report it: the observer's alive, and false while the passive state is
     * UNHEALTHY. Without passive reports this is exactly the observer's alive; false while not probed.
     */
    public boolean alive() {
        return probe != null && probe.alive() && passive.state() != HealthState.UNHEALTHY;
    }
}
