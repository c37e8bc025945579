package io.observatory.probe;

import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of one probe through one outbound. Immutable.
 *
 * @param outboundTag the outbound probed
 * @param success {@code true} when an HTTP response arrived (Xray: any status counts as alive)
 * @param rttNanos request start to response headers (or to the end of the body when it is read); measured on the
 *     monotonic clock; on failure the time until the failure was noticed
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
