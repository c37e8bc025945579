package io.observatory.probe;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one probe through one outbound. Immutable.
 *
 * @param outboundTag the outbound probed
 * @param success {@code true} when an HTTP response arrived (Xray: any status counts as alive); for {@code tcp} and
 *     {@code tls} outbounds, when the connection or the handshake completed
 * @param rttNanos the path's round-trip time in nanoseconds, on the monotonic clock: the sum of the {@link ProbePhases}
 *     (local name resolution of the first hop when measured, TCP connect, proxy and TLS handshakes, and the span from
 *     the request's first bytes to the read that completed the response headers), the last span ending instead at
 *     the read that completed the body for a client that reads it ({@link ProbeRequest.Client#BURST_PING} and
 *     {@link ProbeRequest.Client#CONNECTIVITY_CHECK} on GET). This is the span of Xray's delay ({@code client.Do},
 *     which returns once the response headers are read, plus the body copy where Xray reads it) and compares with
 *     curl's {@code time_starttransfer}. Every boundary is a socket event stamped on the event loop before anything
 *     else reacts to it, so the client's own work is not counted: its setup (channel creation and registration, the
 *     hop from resolution to connect), its work between the proxy's replies and its next handshake messages, building
 *     and encoding the request once the connection is ready, decoding the replies, and completing the probe (reactor
 *     operators, closing the connection). For a followed redirect, the
 *     final request's. For {@code tcp}: name resolution when measured and the connect; for {@code tls}: those and the
 *     handshake. On failure: the time from the probe's start until the failure was noticed
 * @param phases per-phase timings
 * @param httpStatus HTTP status of the response, or 0 when none arrived (always for tcp and tls)
 * @param startedAt wall-clock start
 * @param finishedAt wall-clock end
 * @param error why it failed; {@code null} exactly when {@code success}
 * @param certificateNotAfter the end of validity of the server certificate a {@code tls} outbound's handshake
 *     received (also when it was not verified); {@code null} for every other probe and for a failed handshake
 */
public record ProbeResult(
        String outboundTag,
        boolean success,
        long rttNanos,
        ProbePhases phases,
        int httpStatus,
        Instant startedAt,
        Instant finishedAt,
        @Nullable ProbeError error,
        @Nullable Instant certificateNotAfter) {

    public ProbeResult {
        Objects.requireNonNull(outboundTag, "outboundTag");
        Objects.requireNonNull(phases, "phases");
        if (success != (error == null)) {
            throw new IllegalArgumentException("error must be null exactly when the probe succeeded");
        }
    }

    /** A result without a certificate: any probe but a {@code tls} outbound's successful handshake. */
    public ProbeResult(
            String outboundTag,
            boolean success,
            long rttNanos,
            ProbePhases phases,
            int httpStatus,
            Instant startedAt,
            Instant finishedAt,
            @Nullable ProbeError error) {
        this(outboundTag, success, rttNanos, phases, httpStatus, startedAt, finishedAt, error, null);
    }

    /** Returns the RTT truncated to milliseconds, as Xray reports delay. */
    public long rttMillis() {
        return rttNanos / 1_000_000;
    }
}
