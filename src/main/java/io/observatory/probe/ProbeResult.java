package io.observatory.probe;

import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of one probe through one outbound. Immutable.
 *
 * @param outboundTag the outbound probed
 * @param success {@code true} when an HTTP response arrived (Xray: any status counts as alive)
 * @param rttNanos from the probe's first network operation (local name resolution, else the TCP connect to the first
 *     hop) to the response headers, or to the end of the body when it is read; the client's own connection setup
 *     (channel creation and registration, well under a millisecond) is not part of the path and not counted, so the
 *     figure compares with curl's {@code time_starttransfer}; measured on the monotonic clock. On failure: the time
 *     from the probe's start until the failure was noticed
 * @param phases per-phase timings
 * @param httpStatus HTTP status of the response, or 0 when none arrived
 * @param startedAt wall-clock start
 * @param finishedAt wall-clock end
 * @param error why it failed; {@code null} exactly when {@code success}
 */
public record ProbeResult(
        String outboundTag,
        boolean success,
        long rttNanos,
        ProbePhases phases,
        int httpStatus,
        Instant startedAt,
        Instant finishedAt,
        ProbeError error) {

    public ProbeResult {
        Objects.requireNonNull(outboundTag, "outboundTag");
        Objects.requireNonNull(phases, "phases");
        if (success != (error == null)) {
            throw new IllegalArgumentException("error must be null exactly when the probe succeeded");
        }
    }

    /** Returns the RTT truncated to milliseconds, as Xray reports delay. */
    public long rttMillis() {
        return rttNanos / 1_000_000;
    }
}
