package io.observatory.snapshot;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One configured outbound in the {@link Observation}: the observer's status (active state and probe evidence), the
 * passive state and call statistics, the states of the capabilities' health sources (e.g. the mesh's, for a hub's
 * entry points), the combined verdict and its last change. Immutable; an outbound no source has an opinion of shares
 * the empty list.
 *
 * @param tag              the outbound's tag
 * @param probe            the observer's status, or {@code null} while no observer has produced one (never probed,
 *                         or not selected by the observer)
 * @param passive          the passive state and call statistics
 * @param sources          what each capability's health source says of it, in source name order, at most one per
 *                         source; empty when none has an opinion
 * @param verdict          {@link io.observatory.health.CombinedVerdict} of the active, passive and source states
 * @param lastChange       wall time the verdict or one of the states last changed (or the outbound appeared)
 * @param lastChangeReason why, e.g. {@code active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms}
 */
public record OutboundHealth(
        String tag,
        @Nullable OutboundStatus probe,
        PassiveView passive,
        List<SourceHealth> sources,
        HealthState verdict,
        Instant lastChange,
        String lastChangeReason) {

    public OutboundHealth {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(passive, "passive");
        sources = List.copyOf(sources);
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(lastChange, "lastChange");
        Objects.requireNonNull(lastChangeReason, "lastChangeReason");
    }

    /** The active state: the observer's, UNKNOWN while not probed. */
    public HealthState activeState() {
        return probe == null ? HealthState.UNKNOWN : probe.active().state();
    }

    /** What the health source {@code name} says of this outbound, if it has an opinion. */
    public Optional<SourceHealth> source(String name) {
        for (SourceHealth source : sources) {
            if (source.source().equals(name)) {
                return Optional.of(source);
            }
        }
        return Optional.empty();
    }

    /** The state the health source {@code name} gives this outbound: UNKNOWN where it has no opinion. */
    public HealthState sourceState(String name) {
        return source(name).map(SourceHealth::state).orElse(HealthState.UNKNOWN);
    }

    /** What the first source, in name order, that measured this outbound measured, or {@code null}. */
    private SourceHealth.@Nullable Measurement measured() {
        SourceHealth measuring = measuring();
        return measuring == null ? null : measuring.measurement();
    }

    /** The first source, in name order, that measured this outbound, or {@code null}. */
    private @Nullable SourceHealth measuring() {
        for (SourceHealth source : sources) {
            if (source.measurement() != null) {
                return source;
            }
        }
        return null;
    }

    /**
     * Whether an observer or a health source has measured the outbound: what Xray's {@code GetOutboundStatus} lists
     * and {@code Pick} chooses from.
     */
    public boolean probed() {
        return probe != null || measured() != null;
    }

    /**
     * Xray's {@code alive} as the APIs report it: the observer's alive, and false while the passive state is
     * UNHEALTHY. Without passive reports this is exactly the observer's alive; false while not probed. An outbound a
     * health source measured (a hub's entry point) is alive while that source finds it usable and the verdict is not
     * UNHEALTHY (a DEGRADED one is alive).
     */
    public boolean alive() {
        SourceHealth.Measurement measurement = measured();
        if (measurement != null) {
            return measurement.usable() && verdict != HealthState.UNHEALTHY;
        }
        return probe != null && probe.alive() && passive.state() != HealthState.UNHEALTHY;
    }

    /**
     * Xray's delay in milliseconds: the observer's, else the measuring source's; {@link
     * OutboundStatus#DEAD_DELAY_MILLIS} when neither has one.
     */
    public long delayMillis() {
        if (probe != null) {
            return probe.delayMillis();
        }
        SourceHealth.Measurement measurement = measured();
        return measurement != null ? measurement.delayMillis() : OutboundStatus.DEAD_DELAY_MILLIS;
    }

    /** Xray's last error: the observer's, else the measuring source's reason while the outbound is not alive. */
    public String lastErrorReason() {
        if (probe != null) {
            return probe.lastErrorReason();
        }
        SourceHealth measuring = measuring();
        return measuring != null && !alive() ? measuring.detail() : "";
    }

    /** Xray's last-seen time in unix seconds, the observer's or the measuring source's; 0 when never. */
    public long lastSeenEpochSeconds() {
        if (probe != null) {
            return probe.lastSeenEpochSeconds();
        }
        SourceHealth.Measurement measurement = measured();
        return measurement == null || measurement.lastSeen() == null
                ? 0
                : measurement.lastSeen().getEpochSecond();
    }

    /** Xray's last-try time in unix seconds, the observer's or the measuring source's; 0 when never. */
    public long lastTryEpochSeconds() {
        if (probe != null) {
            return probe.lastTryEpochSeconds();
        }
        SourceHealth.Measurement measurement = measured();
        return measurement == null || measurement.lastTry() == null
                ? 0
                : measurement.lastTry().getEpochSecond();
    }
}
