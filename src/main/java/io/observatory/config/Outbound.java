package io.observatory.config;

import io.netty.util.NetUtil;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One {@code observatory.outbounds[i]} entry: a named egress path that probes go through. Bound and validated by
 * {@link ObservatoryConfigBinder}; immutable. A {@code direct} outbound takes no address, port or credentials: setting
 * one is rejected rather than ignored, because it usually means the protocol was forgotten or mistyped and probes
 * would silently bypass the proxy. A {@code tcp} or {@code tls} outbound is probed by the handshake itself: its
 * address and port are the server's, and it takes no credentials and no probe URL. Costs ten references per outbound.
 *
 * @param tag         unique, non-blank name of the outbound, without control characters (line breaks, tabs);
 *                    subject selectors match its prefix. Required, no default
 * @param protocol    how the outbound is probed: direct, http (CONNECT proxy) or socks (SOCKS5) send the probe URL's
 *                    request; tcp connects to address:port, tls also completes a TLS handshake there (xray is
 *                    for mesh entry points only: an Xray configuration's own outbounds come from
 *                    observatory.core.config-file); in any letter case. Required, no default
 * @param address     host name (ASCII letters, digits, '-', '.', '_') or IP address, IPv6 with or without brackets
 *                    (kept without them); no port here: the proxy's for http and socks, the server's for tcp and tls.
 *                    Required for all but direct, must stay unset for direct. No default
 * @param port        TCP port number, 1-65535, of the proxy or the server. Required for all but direct, must stay unset
 *                    for direct. No default
 * @param username    proxy user name (HTTP Basic or SOCKS5 RFC 1929, at most 255 bytes for SOCKS5); blank means none.
 *                    Set together with password, or not at all; http and socks only. No default
 * @param password    proxy password (at most 255 bytes for SOCKS5); blank means none. Set together with username, or
 *                    not at all; never printed; http and socks only. No default
 * @param probeUrl    absolute http(s) URL probed through this outbound instead of the observer's (a YARP-style
 *                    per-destination health address); a port in it must be 1-65535; blank means none; not for tcp and
 *                    tls, whose probe is the handshake. Default: the observer's URL
 * @param sni         for a tls outbound: the server name sent in the handshake and, unless {@code allowInsecure}, the
 *                    name the certificate must match, a host name (an IP address cannot be sent as SNI); blank means
 *                    none. Default: the address when it is a host name, else none
 * @param alpn        for a tls outbound: the ALPN protocols offered, in order of preference (e.g. h2, http/1.1), each
 *                    1-255 bytes. Default: none offered
 * @param allowInsecure for a tls outbound: whether the handshake succeeds whatever the certificate (expired,
 *                    self-signed, another name), as Xray's {@code allowInsecure}: for servers whose certificate is not
 *                    the point (Reality, self-signed camouflage). Default: false, the certificate is verified
 * @param endpoint    where xDS clients (Envoy, proxyless gRPC) send this outbound's traffic, as {@code host:port} with
 *                    an IP address for xDS (e.g. {@code 10.0.0.5:443}, {@code [::1]:8080}); blank means none. Default:
 *                    the proxy's or server's address and port; for direct, the host and port of its probe URL (its own,
 *                    else the observer's); for xray, none
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
        @Nullable @HttpUrl String probeUrl,
        @Nullable String sni,
        @DefaultValue List<String> alpn,
        boolean allowInsecure,
        @Nullable String endpoint)
        implements Checked {

    /** What a valid protocol looks like, for messages. */
    public static final String EXPECTED_PROTOCOL = "one of direct, http, socks, tcp, tls, xray";

    private static final String EXPECTED_PORT = "1-65535";

    private static final String EXPECTED_ADDRESS = "the proxy's host name or IP address, without a port";

    private static final String NOTHING_FOR_DIRECT = "nothing for protocol direct, which uses no proxy";

    private static final String TLS_ONLY = "nothing for protocol %s: only a tls outbound sends %s";

    /** What a proxy host name may be made of (ASCII letters, digits, {@code -}, {@code .}, {@code _}). */
    private static final java.util.regex.Pattern HOST_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._-]+");

    /** Digits and dots only: not a host name, so it must be an IPv4 literal. */
    private static final java.util.regex.Pattern DOTTED_DIGITS = java.util.regex.Pattern.compile("[0-9.]+");

    /** Strips the brackets of an IPv6 literal and reads blank credentials, probe URL and SNI as none. */
    @ConstructorBinding
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
        sni = sni == null || sni.isBlank() ? null : withoutTrailingDot(sni.strip());
        alpn = List.copyOf(alpn);
        endpoint = endpoint == null || endpoint.isBlank() ? null : endpoint.strip();
    }

    /** An outbound without an explicit balancer endpoint. */
    public Outbound(
            String tag,
            Protocol protocol,
            @Nullable String address,
            @Nullable Integer port,
            @Nullable String username,
            @Nullable String password,
            @Nullable String probeUrl,
            @Nullable String sni,
            List<String> alpn,
            boolean allowInsecure) {
        this(tag, protocol, address, port, username, password, probeUrl, sni, alpn, allowInsecure, null);
    }

    /** An outbound of the probe-URL protocols (direct, http, socks): no SNI, no ALPN, certificates verified. */
    public Outbound(
            String tag,
            Protocol protocol,
            @Nullable String address,
            @Nullable Integer port,
            @Nullable String username,
            @Nullable String password,
            @Nullable String probeUrl) {
        this(tag, protocol, address, port, username, password, probeUrl, null, List.of(), false, null);
    }

    /** Returns a direct outbound without credentials or probe URL. */
    public static Outbound direct(String tag) {
        return new Outbound(tag, Protocol.DIRECT, null, null, null, null, null);
    }

    @Override
    public void check(Problems problems) {
        if (endpoint != null && HostPort.parse(endpoint) == null) {
            problems.reject("endpoint", HostPort.EXPECTED);
        }
        if (protocol != Protocol.TLS && protocol != null) {
            String name = protocol.name().toLowerCase(Locale.ROOT);
            rejectIfSet(problems, "sni", sni, String.format(Locale.ROOT, TLS_ONLY, name, "a server name"));
            rejectIfSet(
                    problems,
                    "alpn",
                    alpn.isEmpty() ? null : alpn,
                    String.format(Locale.ROOT, TLS_ONLY, name, "ALPN protocols"));
            rejectIfSet(
                    problems,
                    "allow-insecure",
                    allowInsecure ? true : null,
                    String.format(Locale.ROOT, TLS_ONLY, name, "a certificate to verify"));
        }
        if (protocol == Protocol.XRAY) {
            String nothing = "nothing for protocol xray, whose object says where and how to connect";
            rejectIfSet(problems, "address", address, nothing);
            rejectIfSet(problems, "port", port, nothing);
            rejectIfSet(problems, "username", username, nothing);
            rejectIfSet(problems, "password", password, nothing);
            return;
        }
        if (protocol == Protocol.DIRECT) {
            rejectIfSet(problems, "address", address, NOTHING_FOR_DIRECT);
            rejectIfSet(problems, "port", port, NOTHING_FOR_DIRECT);
            rejectIfSet(problems, "username", username, NOTHING_FOR_DIRECT);
            rejectIfSet(problems, "password", password, NOTHING_FOR_DIRECT);
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
        if (protocol.handshakeOnly()) {
            String nothing = "nothing for protocol " + protocol.name().toLowerCase(Locale.ROOT)
                    + ", whose probe is the handshake itself";
            rejectIfSet(problems, "username", username, nothing);
            rejectIfSet(problems, "password", password, nothing);
            rejectIfSet(problems, "probe-url", probeUrl, nothing);
            checkTls(problems);
            return;
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

    private void checkTls(Problems problems) {
        if (sni != null
                && (!HOST_NAME.matcher(sni).matches()
                        || DOTTED_DIGITS.matcher(sni).matches())) {
            problems.reject("sni", "a host name (an IP address is never sent as a server name)");
        }
        for (int i = 0; i < alpn.size(); i++) {
            int bytes = alpn.get(i).getBytes(StandardCharsets.UTF_8).length;
            if (alpn.get(i).isBlank() || bytes > 255) {
                problems.reject("alpn[" + i + "]", "an ALPN protocol name of 1-255 bytes, such as h2 or http/1.1");
            }
        }
    }

    /** Returns {@code true} when probes go through a proxy (the first hop is {@code address:port}). */
    public boolean proxied() {
        return protocol == Protocol.HTTP || protocol == Protocol.SOCKS;
    }

    /**
     * The server name a tls outbound sends: its {@code sni}, else its address when that is a host name; {@code null}
     * for an IP address or another protocol.
     */
    public @Nullable String serverName() {
        if (protocol != Protocol.TLS) {
            return null;
        }
        if (sni != null) {
            return sni;
        }
        return address == null
                        || NetUtil.isValidIpV6Address(address)
                        || DOTTED_DIGITS.matcher(address).matches()
                ? null
                : address;
    }

    /**
     * Where balancers send this outbound's traffic: its {@code endpoint}; else the proxy's or server's address and
     * port; for direct, the host and port of its probe URL, else of {@code observerUrl} (80 or 443 by scheme when the
     * URL has none); {@code null} for xray without an endpoint, or a URL without a host.
     *
     * @param observerUrl the observer's probe URL, for a direct outbound without its own; {@code null} when none
     */
    public @Nullable HostPort balancerEndpoint(@Nullable URI observerUrl) {
        if (endpoint != null) {
            return HostPort.parse(endpoint);
        }
        if (protocol == Protocol.XRAY) {
            return null;
        }
        if (protocol != Protocol.DIRECT) {
            return address == null || port == null ? null : new HostPort(address, port);
        }
        URI url = probeUrl != null ? URI.create(probeUrl) : observerUrl;
        if (url == null || url.getHost() == null) {
            return null;
        }
        String host = url.getHost().startsWith("[")
                ? url.getHost().substring(1, url.getHost().length() - 1)
                : url.getHost();
        int port = url.getPort() > 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
        return new HostPort(host, port);
    }

    /** Returns {@code true} when proxy credentials are configured. */
    public boolean authenticated() {
        return username != null;
    }

    /**
     * Returns the probe URL to use: this outbound's own, else the observer's {@code observerUrl}; for tcp and tls, the
     * server they connect to as {@code tcp://host:port} or {@code tls://host:port} (no observer's URL applies).
     */
    public URI probeUrlOr(URI observerUrl) {
        if (protocol.handshakeOnly()) {
            return URI.create(protocol.name().toLowerCase(Locale.ROOT) + "://" + hostPort());
        }
        return probeUrl != null ? URI.create(probeUrl) : observerUrl;
    }

    /**
     * Describes the path for log lines and error reasons, e.g. {@code socks 127.0.0.1:1080}, {@code http [::1]:3128}
     * or {@code direct}.
     */
    public String describe() {
        if (protocol == Protocol.DIRECT) {
            return "direct";
        }
        if (protocol == Protocol.XRAY) {
            return "xray outbound";
        }
        String name = serverName();
        return protocol.name().toLowerCase(Locale.ROOT) + " " + hostPort()
                + (name != null && !name.equals(address) ? " sni " + name : "");
    }

    private String hostPort() {
        String host = address != null && address.indexOf(':') >= 0 ? "[" + address + "]" : address;
        return host + ":" + port;
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "Outbound[" + tag + ", " + describe() + (authenticated() ? ", user " + username : "") + "]";
    }

    private static void rejectIfSet(Problems problems, String property, @Nullable Object value, String expected) {
        if (value != null) {
            problems.reject(property, expected);
        }
    }

    /** RFC 1929 carries the SOCKS5 username and password in at most 255 bytes each. */
    private static void rejectIfLonger(Problems problems, String property, @Nullable String value) {
        if (value != null && value.getBytes(StandardCharsets.UTF_8).length > 255) {
            problems.reject(property, "at most 255 bytes (UTF-8) for a SOCKS5 proxy (RFC 1929)");
        }
    }

    /** A fully qualified name's root dot ({@code example.com.}): an SNI host name is sent without it (RFC 6066). */
    private static String withoutTrailingDot(String name) {
        return name.endsWith(".") && name.length() > 1 ? name.substring(0, name.length() - 1) : name;
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
