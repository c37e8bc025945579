package io.observatory.probe;

/**
 * How long each phase of one probe took, in nanoseconds; {@link #NOT_MEASURED} for a phase that did not happen (no
 * proxy, no TLS) or was not reached before the probe ended.
 *
 * @param dnsNanos local name resolution of the first hop (the target when direct, the proxy otherwise); not measured
 *     when that hop is an IP literal or the proxy resolves the name
 * @param connectNanos TCP connect to the first hop
 * @param proxyHandshakeNanos SOCKS5 negotiation or HTTP CONNECT exchange, including the proxy's dial to the target
 * @param tlsNanos TLS handshake with the target
 * @param firstByteNanos from the connection being ready to the response headers (request write plus server time)
 */
public record ProbePhases(
        long dnsNanos, long connectNanos, long proxyHandshakeNanos, long tlsNanos, long firstByteNanos) {

    /** Marks a phase that was not measured. */
    public static final long NOT_MEASURED = -1;

    /** No phase measured. */
    public static final ProbePhases NONE =
            new ProbePhases(NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED);
}
