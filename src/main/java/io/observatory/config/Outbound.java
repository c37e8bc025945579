package io.observatory.config;

import io.netty.util.NetUtil;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;

/**
 * One {@code observatory.outbounds[i]} entry: a named egress path that probes go through. Bound and validated by
 * {@link ObservatoryConfigBinder}; immutable. A {@code direct} outbound takes no address, port or credentials: setting
 * one is rejected rather than ignored, because it usually means the protocol was forgotten or mistyped and probes
 * would silently bypass the proxy. Costs seven references per outbound.
 *
 * @param tag         unique, non-blank name of the outbound, without control characters (line breaks, tabs);
 *                    subject selectors match its prefix. Required, no default
 * @param protocol    how the outbound reaches the network: direct, http (CONNECT proxy) or socks (SOCKS5), in any
 *                    letter case. Required, no default
 * @param address     proxy host name (ASCII letters, digits, '-', '.', '_') or IP address, IPv6 with or without
 *                    brackets (kept without them); no port here. Required for http and socks, must stay unset for
 *                    direct. No default
 * @param port        proxy TCP port number, 1-65535. Required for http and socks, must stay unset for direct. No
 *                    default
 * @param username    proxy user name (HTTP Basic or SOCKS5 RFC 1929, at most 255 bytes for SOCKS5); blank means none.
 *                    Set together with password, or not at all. No default
 * @param password    proxy password (at most 255 bytes for SOCKS5); blank means none. Set together with username, or
 *                    not at all; never printed. No default
 * @param probeUrl    absolute http(s) URL probed through this outbound instead of the observer's (a YARP-style
 *                    per-destination health address); a port in it must be 1-65535; blank means none. Default: the
 *                    observer's URL
 */
public record Outbound(
        @NotBlank(message = "a non-blank tag")
        @Pattern(regexp = "\\s*|\\P{Cc}*", message = "a tag without control characters")
        String tag,

        @NotNull(message = EXPECTED_PROTOCOL) Protocol protocol,
        @Nullable String address,

        @Nullable @Range(min = 1, max = 65_535, message = EXPECTED_PORT)
        Integer port,

        @Nullable String username,
        @Nullable String password,
        @Nullable @HttpUrl String probeUrl)
        implements Checked {

    /** What a valid protocol looks like, for messages. */
    public static final String EXPECTED_PROTOCOL = "one of direct, http, socks";

    private static final String EXPECTED_PORT = "1-65535";

    private static final String EXPECTED_ADDRESS = "the proxy's host name or IP address, without a port";

    private static final String NOTHING_FOR_DIRECT = "nothing for protocol direct, which uses no proxy";

    /** What a proxy host name may be made of (ASCII letters, digits, {@code -}, {@code .}, {@code _}). */
    private static final java.util.regex.Pattern HOST_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._-]+");

    /** Digits and dots only: not a host name, so it must be an IPv4 literal. */
    private static final java.util.regex.Pattern DOTTED_DIGITS = java.util.regex.Pattern.compile("[0-9.]+");

    /** Strips the brackets of an IPv6 literal and reads blank credentials and probe URL as none. */
    public Outbound {
        if (address != null
                && address.startsWith("[")
                && address.endsWith("]")
                && NetUtil.isValidIpV6Address(address.substring(1, address.length() - 1))) {
            address = address.substring(1, address.length() - 1);
        }
        username = blankToNull(username);
        password = blankToNull(password);
        probeUrl = probeUrl == null || probeUrl.isBlank() ? null : probeUrl.strip();
    }

    /** Returns a direct outbound without credentials or probe URL. */
    public static Outbound direct(String tag) {
        return new Outbound(tag, Protocol.DIRECT, null, null, null, null, null);
    }

    @Override
    public void check(Problems problems) {
        if (protocol == Protocol.DIRECT) {
            rejectIfSet(problems, "address", address);
            rejectIfSet(problems, "port", port);
            rejectIfSet(problems, "username", username);
            rejectIfSet(problems, "password", password);
            return;
        }
        if (protocol == null) {
            return;
        }
        if (address == null || !isHostOrIpLiteral(address)) {
            problems.reject("address", EXPECTED_ADDRESS);
        }
        if (port == null) {
            problems.reject("port", EXPECTED_PORT);
        }
        if (protocol == Protocol.SOCKS) {
            rejectIfLonger(problems, "username", username);
            rejectIfLonger(problems, "password", password);
        }
        if (username != null && password == null) {
            problems.reject("password", "a password, since " + problems.name("username") + " is set");
        }
        if (password != null && username == null) {
            problems.reject("username", "a username, since " + problems.name("password") + " is set");
        }
    }

    /** Returns {@code true} when probes go through a proxy (the first hop is {@code address:port}). */
    public boolean proxied() {
        return protocol != Protocol.DIRECT;
    }

    /** Returns {@code true} when proxy credentials are configured. */
    public boolean authenticated() {
        return username != null;
    }

    /** Returns the probe URL to use: this outbound's own, else the observer's {@code observerUrl}. */
    public URI probeUrlOr(URI observerUrl) {
        return probeUrl != null ? URI.create(probeUrl) : observerUrl;
    }

    /**
     * Describes the path for log lines and error reasons, e.g. {@code socks 127.0.0.1:1080}, {@code http [::1]:3128}
     * or {@code direct}.
     */
    public String describe() {
        if (!proxied()) {
            return "direct";
        }
        String host = address != null && address.indexOf(':') >= 0 ? "[" + address + "]" : address;
        return protocol.name().toLowerCase(Locale.ROOT) + " " + host + ":" + port;
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "Outbound[" + tag + ", " + describe() + (authenticated() ? ", user " + username : "") + "]";
    }

    private static void rejectIfSet(Problems problems, String property, @Nullable Object value) {
        if (value != null) {
            problems.reject(property, NOTHING_FOR_DIRECT);
        }
    }

    /** RFC 1929 carries the SOCKS5 username and password in at most 255 bytes each. */
    private static void rejectIfLonger(Problems problems, String property, @Nullable String value) {
        if (value != null && value.getBytes(StandardCharsets.UTF_8).length > 255) {
            problems.reject(property, "at most 255 bytes (UTF-8) for a SOCKS5 proxy (RFC 1929)");
        }
    }

    private static @Nullable String blankToNull(@Nullable String text) {
        return text == null || text.isBlank() ? null : text;
    }

    /**
     * Whether {@code address} is a host name made of ASCII letters, digits, {@code -}, {@code .} and {@code _}, an
     * IPv4 literal, or an IPv6 literal (brackets already stripped); not, e.g., {@code 127.0.0.1:1080} or
     * {@code 10.0.0.256}.
     */
    static boolean isHostOrIpLiteral(String address) {
        if (NetUtil.isValidIpV6Address(address)) {
            return true;
        }
        if (DOTTED_DIGITS.matcher(address).matches()) {
            return NetUtil.isValidIpV4Address(address);
        }
        return HOST_NAME.matcher(address).matches();
    }
}
