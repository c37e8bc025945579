package io.observatory.status;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One configured outbound in the {@link Observation}: the observer's status (active state and probe evidence), the
 * passive state and call statistics, the mesh's mark (a hub's entry points), the combined verdict and its last
 * change. Immutable.
 *
 * @param tag              the outbound's tag
 * @param probe            the observer's status, or {@code null} while no observer has produced one (never probed,
 *                         or not selected by the observer)
 * @param passive          the passive state and call statistics
 * @param mesh             the mesh's mark, or {@code null} when it is no entry point of this hub's fleet, or no
 *                         judgement covered it yet
 * @param verdict          {@link io.observatory.health.CombinedVerdict} of the active, passive and mesh states
 * @param lastChange       wall time the verdict or one of the states last changed (or the outbound appeared)
 * @param lastChangeReason why, e.g. {@code active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms}
 */
public record OutboundHealth(
        String tag,
        @Nullable OutboundStatus probe,
        PassiveView passive,
        @Nullable MeshMark mesh,
        HealthState verdict,
        Instant lastChange,
        String lastChangeReason) {

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

    /** The mesh state: the mesh's, UNKNOWN where it has no opinion. */
    public HealthState meshState() {
        return mesh == null ? HealthState.UNKNOWN : mesh.state();
    }

    /**
     * Whether an observer or the mesh's witnesses have produced a status for the outbound: what Xray's
     * {@code GetOutboundStatus} lists and {@code Pick} chooses from.
     */
    public boolean probed() {
        return probe != null || mesh != null;
    }

    /**
     * Xray's {@code alive} as the APIs report it: the observer's alive, and false while the passive state is
     * UNHEALTHY. Without passive reports this is exactly the observer's alive; false while not probed. A mesh entry
     * point is alive while the mesh keeps it in rotation and the verdict is not UNHEALTHY (its DEGRADED state is
     * alive).
     */
    public boolean alive() {
        if (mesh != null) {
            return mesh.inRotation() && verdict != HealthState.UNHEALTHY;
        }
        return probe != null && probe.alive() && passive.state() != HealthState.UNHEALTHY;
    }

    /**
     * Xray's delay in milliseconds: the observer's, else the mesh's median; {@link OutboundStatus#DEAD_DELAY_MILLIS}
     * when neither has one.
     */
    public long delayMillis() {
        if (probe != null) {
            return probe.delayMillis();
        }
        return mesh != null ? mesh.delayMillis() : OutboundStatus.DEAD_DELAY_MILLIS;
    }

    /** Xray's last error: the observer's, else the mesh's reason while the mesh keeps it out of rotation. */
    public String lastErrorReason() {
        if (probe != null) {
            return probe.lastErrorReason();
        }
        return mesh != null && !alive() ? mesh.detail() : "";
    }

    /** Xray's last-seen time in unix seconds, the observer's or the mesh's; 0 when never. */
    public long lastSeenEpochSeconds() {
        if (probe != null) {
            return probe.lastSeenEpochSeconds();
        }
        return mesh == null || mesh.lastSeen() == null ? 0 : mesh.lastSeen().getEpochSecond();
    }

    /** Xray's last-try time in unix seconds, the observer's or the mesh's; 0 when never. */
    public long lastTryEpochSeconds() {
        if (probe != null) {
            return probe.lastTryEpochSeconds();
        }
        return mesh == null || mesh.lastTry() == null ? 0 : mesh.lastTry().getEpochSecond();
    }
}
