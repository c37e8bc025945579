package io.observatory.config;

/** How an outbound reaches the network: directly, through an HTTP CONNECT proxy, or through a SOCKS5 proxy. */
public enum Protocol {
    /** No proxy: the probe connects to the target itself and resolves its host name locally. */
    DIRECT,
    /** HTTP proxy, always tunnelled with CONNECT (also for {@code http://} targets); optional Basic authentication. */
    HTTP,
    /** SOCKS5 proxy (RFC 1928); optional username/password authentication (RFC 1929). */
    SOCKS
}
