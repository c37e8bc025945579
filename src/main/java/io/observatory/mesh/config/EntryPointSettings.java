package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.HttpUrl;
import io.observatory.config.Outbound;
import io.observatory.config.Problems;
import io.observatory.config.Protocol;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;

/**
 * One {@code observatory.mesh.hub.servers[i].entry-points[j]}: an address clients of the server connect to, probed by
 * every witness exactly as a client would, through its protocol. Everywhere in the API it is the outbound
 * {@code <server>/<name>}; its properties mean what an {@link Outbound}'s do and are checked by the same rules.
 *
 * @param name     unique within its server, e.g. {@code main}. Required
 * @param protocol direct, http (CONNECT proxy) or socks (SOCKS5). Required
 * @param address  the proxy's host name or IP address. Required for http and socks
 * @param port     the proxy's TCP port, 1-65535. Required for http and socks
 * @param username proxy user name; set together with password, or not at all. Default: none
 * @param password proxy password; never printed. Default: none
 * @param probeUrl absolute http(s) URL probed through this entry point instead of
 *                 {@code observatory.mesh.hub.probe.probe-url}. Default: that URL
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
        @Nullable @HttpUrl String probeUrl)
        implements Checked {

    /** This entry point as the outbound {@code <server>/<name>}. */
    public Outbound outbound(String server) {
        return new Outbound(server + "/" + name, protocol, address, port, username, password, probeUrl);
    }

    @Override
    public void check(Problems problems) {
        outbound("server").check(problems);
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "EntryPointSettings[" + name + ", " + outbound("server").describe() + "]";
    }
}
