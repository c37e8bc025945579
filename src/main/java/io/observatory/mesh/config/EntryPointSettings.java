package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.HttpUrl;
import io.observatory.config.Outbound;
import io.observatory.config.Problems;
import io.observatory.config.Protocol;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One {@code observatory.mesh.hub.servers[i].entry-points[j]}: an address clients of the server connect to, probed by
 * every witness exactly as a client would, through its protocol. Everywhere in the API it is the outbound
 * {@code <server>/<name>}; its properties mean what an {@link Outbound}'s do and are checked by the same rules.
 *
 * @param name     unique within its server, e.g. {@code main}. Required
 * @param protocol direct, http (CONNECT proxy), socks (SOCKS5), tcp (a connect), tls (a TLS handshake) or xray (an
 *                 Xray outbound object, below). Required
 * @param address  the proxy's or, for tcp and tls, the server's host name or IP address. Required for all but direct
 * @param port     its TCP port, 1-65535. Required for all but direct
 * @param username proxy user name; set together with password, or not at all. Default: none
 * @param password proxy password; never printed. Default: none
 * @param probeUrl absolute http(s) URL probed through this entry point instead of
 *                 {@code observatory.mesh.hub.probe.probe-url}. Default: that URL
 * @param sni      for tls: the server name sent. Default: the address when it is a host name
 * @param alpn     for tls: the ALPN protocols offered. Default: none
 * @param allowInsecure for tls: whether any certificate is accepted. Default: false
 * @param outbound for xray, and required there: the entry point as an Xray outbound object, JSON text (one entry of
 *                 an Xray configuration's {@code outbounds}, e.g. {@code {"protocol": "vmess", "settings": {...}}};
 *                 its {@code tag} is replaced by the entry point's). Witnesses probe it through their own proxy core
 *                 ({@code observatory.core.binary}) exactly as a client would; it holds credentials, so it is handed
 *                 only to authenticated witnesses and never printed. Share links ({@code vmess://}) are not read:
 *                 no maintained Java parser exists. Default: none
 */
public record EntryPointSettings(
        @NotNull(message = MeshNames.EXPECTED) @Pattern(regexp = MeshNames.PATTERN, message = MeshNames.EXPECTED)
        String name,

        @NotNull(message = Outbound.EXPECTED_PROTOCOL) Protocol protocol,
        @Nullable String address,

        @Nullable @Range(min = 1, max = 65_535, message = "1-65535")
        Integer port,

        @Nullable String username,
        @Nullable String password,
        @Nullable @HttpUrl String probeUrl,
        @Nullable String sni,
        @DefaultValue List<String> alpn,
        boolean allowInsecure,
        @Nullable String outbound)
        implements Checked {

    /** Reads a blank outbound object as none. */
    @ConstructorBinding
    public EntryPointSettings {
        alpn = List.copyOf(alpn);
        outbound = outbound == null || outbound.isBlank() ? null : outbound.strip();
    }

    /** An entry point of the probe-URL protocols (direct, http, socks). */
    public EntryPointSettings(
            String name,
            Protocol protocol,
            @Nullable String address,
            @Nullable Integer port,
            @Nullable String username,
            @Nullable String password,
            @Nullable String probeUrl) {
        this(name, protocol, address, port, username, password, probeUrl, null, List.of(), false, null);
    }

    /** This entry point as the outbound {@code <server>/<name>}. */
    public Outbound outbound(String server) {
        return new Outbound(
                server + "/" + name, protocol, address, port, username, password, probeUrl, sni, alpn, allowInsecure);
    }

    @Override
    public void check(Problems problems) {
        outbound("server").check(problems);
        if (protocol == Protocol.XRAY && outbound == null) {
            problems.reject("outbound", "an Xray outbound object as JSON text, since the protocol is xray");
        } else if (protocol != Protocol.XRAY && outbound != null) {
            problems.reject("outbound", "nothing unless the protocol is xray");
        } else if (outbound != null && !XrayObject.isOutbound(outbound)) {
            problems.reject(
                    "outbound",
                    "an Xray outbound object as JSON text, e.g. {\"protocol\": \"vmess\", \"settings\": {...}}");
        }
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "EntryPointSettings[" + name + ", " + outbound("server").describe() + "]";
    }
}
