package io.observatory.status;

import io.observatory.health.HealthState;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the mesh says about one of a hub's entry points ({@code <server>/<entry>}): the third input of the combined
 * verdict, and the Xray API's status of an entry point the hub does not probe itself. Immutable; about 60 bytes per
 * entry point.
 *
 * @param state       HEALTHY (its server is OK), DEGRADED (a pair cut, or a blocked server its route still needs),
 *                    UNHEALTHY (out of rotation) or UNKNOWN (no data: still in rotation)
 * @param inRotation  whether clients of its route may be given it by its own status
 * @param detail      the server's status and reason, e.g. {@code ok} or {@code unreachable_from_servers(2): cannot
 *                    reach s4/main: w1 (site de) streak 3, w2 (site nl) streak 3}
 * @param delayMillis the median of the witnesses' last successful round-trip times through it, in whole
 *                    milliseconds; {@link OutboundStatus#DEAD_DELAY_MILLIS} when no witness reached it
 * @param lastSeen    the newest report time of a witness whose last probe of it succeeded, or {@code null}
 * @param lastTry     the newest report time of a witness that probed it, or {@code null}
 */
public record MeshMark(
        HealthState state,
        boolean inRotation,
        String detail,
        long delayMillis,
        @Nullable Instant lastSeen,
        @Nullable Instant lastTry) {

    public MeshMark {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
    }
}
