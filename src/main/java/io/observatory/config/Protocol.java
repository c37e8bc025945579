package io.observatory.config;

/**
 * How an outbound is probed: an HTTP request directly, through an HTTP CONNECT proxy or through a SOCKS5 proxy; or
 * only a TCP connect or a TLS handshake to the outbound's own address, the cheap checks that tell an IP block and an
 * SNI block apart.
 */
public enum Protocol {
    /** No proxy: the probe connects to the target itself and resolves its host name locally. */
    DIRECT,
    /** HTTP proxy, always tunnelled with CONNECT (also for {@code http://} targets); optional Basic authentication. */
    HTTP,
    /** SOCKS5 proxy (RFC 1928); optional username/password authentication (RFC 1929). */
    SOCKS,
    /** A TCP connect to {@code address:port}; the RTT is the connect (an IP block shows here). */
    TCP,
    /**
     * A TCP connect and a TLS handshake with {@code address:port}, with the outbound's {@code sni} and {@code alpn};
     * the RTT is connect plus handshake (an SNI block shows here and not in {@link #TCP}).
     */
    TLS,
    /**
     * An outbound given as an Xray outbound object (VLESS, VMess, Trojan, Shadowsocks; a mesh entry point's
     * {@code outbound}), probed with the probe URL through a proxy core that a capability supervises
     * ({@code io.observatory.probe.XrayOutbounds}); the prober alone cannot speak it.
     */
    XRAY;

    /** Whether the probe is the handshake itself rather than an HTTP request to a probe URL. */
    public boolean handshakeOnly() {
        return this == TCP || this == TLS;
    }
}
