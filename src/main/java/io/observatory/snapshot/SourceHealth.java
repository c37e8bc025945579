package io.observatory.snapshot;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one health source of a capability says of one outbound (the {@code sources} of an {@link OutboundHealth}):
 * its state, which the combined verdict takes with the active and passive ones (Envoy's host health flags, each set
 * by its own source), why, and what it measured of an outbound no observer of this instance probes. Immutable; about
 * 60 bytes, and one per outbound the source has an opinion of.
 *
 * @param source      the source, the name of its capability's {@link SnapshotPart}, e.g. {@code mesh}
 * @param state       its state of the outbound
 * @param detail      why, e.g. {@code unreachable_from_servers(2): cannot reach s4/main: w1 (site de) streak 3}
 * @param measurement what the source measured of the outbound, which the Xray API shows when no observer of this
 *                    instance probes it; {@code null} for a source that measures nothing
 */
public record SourceHealth(
        String source,
        HealthState state,
        String detail,
        @Nullable Measurement measurement) {

    public SourceHealth {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
    }

    /**
     * What a source measured of an outbound, in the Xray API's terms.
     *
     * @param usable      whether the source would give the outbound to a client (the mesh: its server is in rotation)
     * @param delayMillis a round-trip time in whole milliseconds, {@link OutboundStatus#DEAD_DELAY_MILLIS} when none
     *                    got through
     * @param lastSeen    the newest time a measurement got through, or {@code null}
     * @param lastTry     the newest time one was tried, or {@code null}
     */
    public record Measurement(
            boolean usable,
            long delayMillis,
            @Nullable Instant lastSeen,
            @Nullable Instant lastTry) {}
}
