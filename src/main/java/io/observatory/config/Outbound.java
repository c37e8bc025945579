package io.observatory.config;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * A named egress path that probes go through: validated, immutable.
 *
 * @param tag unique, non-blank name without control characters; subject selectors match its prefix (Xray)
 * @param protocol how the path reaches the network
 * @param address proxy host name, IPv4 literal or IPv6 literal (without brackets); {@code null} for
 *     {@link Protocol#DIRECT}
 * @param port proxy port 1–65535; {@code 0} for {@link Protocol#DIRECT}
 * @param username proxy user (HTTP Basic or SOCKS5 RFC 1929), or {@code null} for none
 * @param password proxy password, non-null exactly when {@code username} is
 * @param probeUrl per-outbound probe URL overriding the observer's (a YARP-style health address), or {@code null}
 */
public record Outbound(
        String tag, Protocol protocol, String address, int port, String username, String password, URI probeUrl) {

    public Outbound {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(protocol, "protocol");
    }

    /** Returns a direct outbound without credentials or probe URL override. */
    public static Outbound direct(String tag) {
        return new Outbound(tag, Protocol.DIRECT, null, 0, null, null, null);
    }

    /** Returns {@code true} when probes go through a proxy (the first hop is {@code address:port}). */
    public boolean proxied() {
        return protocol != Protocol.DIRECT;
    }

    /** Returns {@code true} when proxy credentials are configured. */
    public boolean authenticated() {
        return username != null;
    }

    /** Returns the probe URL to use: this outbound's override, else the observer's {@code observerUrl}. */
    public URI probeUrlOr(URI observerUrl) {
        return probeUrl != null ? probeUrl : observerUrl;
    }

    /**
     * Describes the path for log lines and error reasons, e.g. {@code socks 127.0.0.1:1080}, {@code http [::1]:3128}
     * or {@code direct}.
     */
    public String describe() {
        if (!proxied()) {
            return "direct";
        }
        String host = address.indexOf(':') >= 0 ? "[" + address + "]" : address;
        return protocol.name().toLowerCase(Locale.ROOT) + " " + host + ":" + port;
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "Outbound[" + tag + ", " + describe() + (authenticated() ? ", user " + username : "") + "]";
    }
}
