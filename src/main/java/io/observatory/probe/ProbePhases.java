package io.observatory.probe;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long each phase of one probe took, in nanoseconds; {@link #NOT_MEASURED} for a phase that did not happen (no
 * proxy, no TLS) or was not reached before the probe ended. Each phase spans two socket events stamped on the event
 * loop (see {@link ProbeResult#rttNanos()}); for a probe that does not read the body they add up to its RTT.
 *
 * @param dnsNanos local name resolution of the first hop (the target when direct, the proxy otherwise); not measured
 *     when that hop is an IP literal or the proxy resolves the name
 * @param connectNanos TCP connect to the first hop
 * @param proxyHandshakeNanos SOCKS5 negotiation or HTTP CONNECT exchange, including the proxy's dial to the target:
 *     the sum of its exchanges on the wire, each from a message's first bytes handed to the socket until the read that
 *     brought the proxy's reply began (the client's own work between a reply and its next message, such as the SOCKS5
 *     authentication after the method reply, is not counted)
 * @param tlsNanos TLS handshake with the target
 * @param firstByteNanos from the request's first bytes handed to the socket until the read that completed the
 *     response headers (the server's time plus the transit both ways; curl's {@code time_starttransfer} minus its
 *     {@code time_pretransfer})
 */
public record ProbePhases(
        long dnsNanos, long connectNanos, long proxyHandshakeNanos, long tlsNanos, long firstByteNanos) {

    /** Marks a phase that was not measured. */
    public static final long NOT_MEASURED = -1;

    /** No phase measured. */
    public static final ProbePhases NONE =
            new ProbePhases(NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED);

    /**
     * Returns the measured phases in path order, in nanoseconds, keyed by the names metrics and the management
     * endpoint use: {@code dns}, {@code connect}, {@code proxy_handshake}, {@code tls}, {@code first_byte}. A phase
     * that was not measured is absent.
     */
    public Map<String, Long> measured() {
        Map<String, Long> measured = new LinkedHashMap<>();
        measured.put("dns", dnsNanos);
        measured.put("connect", connectNanos);
        measured.put("proxy_handshake", proxyHandshakeNanos);
        measured.put("tls", tlsNanos);
        measured.put("first_byte", firstByteNanos);
        measured.values().removeIf(nanos -> nanos == NOT_MEASURED);
        return Collections.unmodifiableMap(measured);
    }
}
