package io.observatory.config;

import io.netty.util.NetUtil;
import org.jspecify.annotations.Nullable;

/**
 * A {@code host:port} as operators write it: a host name or an IPv4 literal (as an outbound's {@code address} is
 * checked), or a bracketed IPv6 literal, then a port 1-65535, e.g. {@code hub.mesh.svc:9090}, {@code 127.0.0.1:443},
 * {@code [::1]:9090}.
 *
 * @param host the host, IPv6 without brackets
 * @param port 1-65535
 */
public record HostPort(String host, int port) {

    /** What a valid value looks like, for messages. */
    public static final String EXPECTED = "host:port with a port 1-65535, e.g. 127.0.0.1:9090 or [::1]:9090";

    /** Reads {@code text}, or returns {@code null} when it is not a {@code host:port}. */
    public static @Nullable HostPort parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return null;
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
            if (!NetUtil.isValidIpV6Address(host)) {
                return null;
            }
        } else if (!Outbound.isHostOrIpLiteral(host)) {
            return null;
        }
        String digits = text.substring(colon + 1);
        if (digits.length() > 5 || !digits.chars().allMatch(Character::isDigit)) {
            return null;
        }
        int port = Integer.parseInt(digits);
        return port >= 1 && port <= 65_535 ? new HostPort(host, port) : null;
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
