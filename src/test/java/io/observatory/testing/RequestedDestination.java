package io.observatory.testing;

import io.netty.handler.codec.socksx.v5.Socks5AddressType;
import io.netty.util.NetUtil;
import java.util.Objects;

/**
 * A destination exactly as a client named it to a lab proxy, before the proxy resolved anything; tests use it to
 * assert that a host name reached the proxy unresolved.
 *
 * @param addressType how the client encoded the host
 * @param host the host as sent: a name for {@link AddressType#DOMAIN}, else an IP literal (IPv6 without brackets)
 * @param port 0–65535
 */
public record RequestedDestination(AddressType addressType, String host, int port) {

    /** How a client encoded the destination host; mirrors the SOCKS5 address types (RFC 1928 section 5). */
    public enum AddressType {
        /** A host name, left for the proxy to resolve. */
        DOMAIN,
        /** An IPv4 literal. */
        IPV4,
        /** An IPv6 literal. */
        IPV6
    }

    public RequestedDestination {
        Objects.requireNonNull(addressType, "addressType");
        Objects.requireNonNull(host, "host");
    }

    /** Returns a destination named by host name, e.g. {@code domain("localhost", 8443)}. */
    public static RequestedDestination domain(String host, int port) {
        return new RequestedDestination(AddressType.DOMAIN, host, port);
    }

    /** Returns a destination named by IPv4 literal, e.g. {@code ipv4("127.0.0.1", 8443)}. */
    public static RequestedDestination ipv4(String host, int port) {
        return new RequestedDestination(AddressType.IPV4, host, port);
    }

    /** Converts a SOCKS5 CONNECT request's {@code DST.ADDR}/{@code DST.PORT} as Netty decoded them. */
    static RequestedDestination ofSocks5(Socks5AddressType type, String host, int port) {
        AddressType addressType;
        if (Socks5AddressType.IPv4.equals(type)) {
            addressType = AddressType.IPV4;
        } else if (Socks5AddressType.IPv6.equals(type)) {
            addressType = AddressType.IPV6;
        } else {
            addressType = AddressType.DOMAIN;
        }
        return new RequestedDestination(addressType, host, port);
    }

    /**
     * Parses an HTTP CONNECT request target in authority form ({@code host:port}, {@code [v6]:port}, RFC 9110 section
     * 9.3.6); the address type is inferred from the host's syntax.
     *
     * @throws IllegalArgumentException if {@code authority} is not {@code host:port} with a port of 0–65535
     */
    static RequestedDestination ofAuthority(String authority) {
        int colon = authority.lastIndexOf(':');
        if (colon <= 0 || colon == authority.length() - 1) {
            throw new IllegalArgumentException("CONNECT target: " + authority + " (expected: host:port)");
        }
        String host = authority.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("CONNECT target: " + authority + " (expected: a numeric port)", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("CONNECT target: " + authority + " (expected: port 0-65535)");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            return new RequestedDestination(AddressType.IPV6, host.substring(1, host.length() - 1), port);
        }
        AddressType addressType = NetUtil.isValidIpV4Address(host) ? AddressType.IPV4 : AddressType.DOMAIN;
        return new RequestedDestination(addressType, host, port);
    }

    /** Returns {@code host:port} as a client would write it, with brackets around an IPv6 host. */
    public String hostAndPort() {
        return (addressType == AddressType.IPV6 ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        return hostAndPort() + " (" + addressType + ")";
    }
}
