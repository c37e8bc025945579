package io.observatory.status;

import io.observatory.health.ActiveHealth;
import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import java.util.Objects;

/**
 * What the observatory currently says about one outbound, in Xray's terms ({@code OutboundStatus} in
 * {@code app/observatory/config.proto}). Immutable.
 *
 * @param tag the outbound's tag
 * @param alive usable now
 * @param delayMillis last RTT (standard) or average RTT (burst) in milliseconds; {@link #DEAD_DELAY_MILLIS} for a
 *     standard-observer outbound whose last probe failed
 * @param lastErrorReason why the last probe failed; empty when alive
 * @param lastSeen wall time of the last success (kept while dead), or {@code null} if never (always for burst)
 * @param lastTry wall time of the last attempt, or {@code null} (always for burst)
 * @param healthPing burst statistics, or {@code null} for the standard observer
 * @param lastProbe the last probe result with phases and classified error (judged against the expected status), or
 *     {@code null} (burst)
 * @param active the active health after the last evaluation (hysteresis state); {@code alive} is
 *     {@code active.state() == HEALTHY}, which under the default active check is exactly Xray's alive
 * @param activeDetail one line on the evidence of the last evaluation, e.g. {@code probe succeeded: HTTP 204 in 12 ms}
 *     or {@code 3/10 samples failed}; the reason a change of the active state is reported with
 */
public record OutboundStatus(
        String tag,
        boolean alive,
        long delayMillis,
        String lastErrorReason,
        Instant lastSeen,
        Instant lastTry,
        HealthPingStats healthPing,
        ProbeResult lastProbe,
        ActiveHealth active,
        String activeDetail) {

    /** Xray's delay for a dead outbound: effectively infinite for sorting. */
    public static final long DEAD_DELAY_MILLIS = 99_999_999L;

    public OutboundStatus {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(lastErrorReason, "lastErrorReason");
        Objects.requireNonNull(active, "active");
        Objects.requireNonNull(activeDetail, "activeDetail");
    }

    /** {@link #lastSeen} in Xray's unit, unix seconds; 0 when never seen. */
    public long lastSeenEpochSeconds() {
        return lastSeen == null ? 0 : lastSeen.getEpochSecond();
    }

    /** {@link #lastTry} in Xray's unit, unix seconds; 0 when never tried. */
    public long lastTryEpochSeconds() {
        return lastTry == null ? 0 : lastTry.getEpochSecond();
    }
}
