package io.observatory.mesh.config;

import com.google.common.net.InetAddresses;
import io.observatory.config.Checked;
import io.observatory.config.HostPort;
import io.observatory.config.Problems;
import io.observatory.config.TokenLocation;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh.witness}: this instance as a witness. It fetches the fleet from a hub, probes every other
 * server's entry points, checks its own server and reports its whole state to every hub each report interval.
 *
 * @param name         its name as the hub knows it ({@code observatory.mesh.hub.witnesses[].name}); the hub refuses
 *                     reports for any other. Required
 * @param checks       the local checks of its own server for its self-report, run before each report; none for an
 *                     external vantage point. Default: none
 * @param checkTimeout the deadline of one check, a positive duration. Default: 2s
 * @param hubs         the hubs, each {@code host:port}; a name that resolves to several addresses (a Kubernetes
 *                     headless Service) means every address, resolved again each report. Required unless this
 *                     instance is also a hub, which it then reports to directly. Default: none
 * @param tokenFile    file holding the bearer token this witness presents to the hubs. At most one of token-file and
 *                     token-env; one of them, or a client certificate in hub-tls, is required unless this instance is
 *                     also a hub. Default: none
 * @param tokenEnv     environment variable holding that token. Default: none
 * @param hubTls       TLS to the hubs, and the client certificate a hub may recognise this witness by instead of a
 *                     token
 * @param tokenOverPlaintext whether the bearer token may go to hubs without TLS: it travels with every call, so a
 *                     witness sends it in clear text only to a hub on a loopback address, or with this opt-in for
 *                     a private network. Default: false
 * @param metrics      the reading of its own server sent with each report
 */
public record WitnessSettings(
        @NotNull(message = MeshNames.EXPECTED) @Pattern(regexp = MeshNames.PATTERN, message = MeshNames.EXPECTED)
        String name,

        @DefaultValue List<SelfCheckSettings> checks,

        @DefaultValue("2s") @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration checkTimeout,

        @DefaultValue List<String> hubs,
        @Nullable String tokenFile,
        @Nullable String tokenEnv,
        @DefaultValue @NestedConfigurationProperty HubTlsSettings hubTls,
        boolean tokenOverPlaintext,
        @DefaultValue @NestedConfigurationProperty WitnessMetricsSettings metrics)
        implements Checked {

    private static final String PROPERTY = "observatory.mesh.witness";

    /** Reads a blank name and blank token locations as none, and strips the hubs. */
    public WitnessSettings {
        name = name == null || name.isBlank() ? null : name.strip();
        checks = List.copyOf(checks);
        hubs = hubs.stream().map(String::strip).toList();
        TokenLocation token = new TokenLocation(tokenFile, tokenEnv, PROPERTY);
        tokenFile = token.file();
        tokenEnv = token.variable();
    }

    /** Whether {@code host} is {@code localhost} or a loopback address literal; nothing is resolved. */
    private static boolean loopback(String host) {
        return host.equalsIgnoreCase("localhost")
                || (InetAddresses.isInetAddress(host)
                        && InetAddresses.forString(host).isLoopbackAddress());
    }

    /** The hubs it reports to, validated. */
    public List<HostPort> hubAddresses() {
        return hubs.stream().map(HostPort::parse).map(Objects::requireNonNull).toList();
    }

    /** Where its own token is kept. */
    public TokenLocation token() {
        return new TokenLocation(tokenFile, tokenEnv, PROPERTY);
    }

    /**
     * Checks the hubs and the credential of a witness that reports over the network; a witness that is also the hub
     * reports to itself ({@link MeshSettings} checks that it names no hub).
     */
    @Override
    public void check(Problems problems) {
        for (int i = 0; i < hubs.size(); i++) {
            if (HostPort.parse(hubs.get(i)) == null) {
                problems.reject("hubs[" + i + "]", HostPort.EXPECTED);
            }
        }
        token().check(problems, "this witness's bearer token");
        metrics.check(problems);
    }

    /**
     * Whether it can report to remote hubs: at least one hub, a credential they recognise, and a token that does not
     * travel in clear text unless to a loopback hub or by the opt-in.
     */
    void checkRemote(Problems problems) {
        if (hubs.isEmpty()) {
            problems.reject("witness.hubs", "none", "at least one hub, " + HostPort.EXPECTED);
        }
        boolean tokenInClear = token().configured() && !hubTls.enabled() && !tokenOverPlaintext;
        for (int i = 0; tokenInClear && i < hubs.size(); i++) {
            HostPort hub = HostPort.parse(hubs.get(i));
            if (hub != null && !loopback(hub.host())) {
                problems.reject(
                        "witness.hubs[" + i + "]",
                        hubs.get(i),
                        "a hub reached over TLS (" + problems.name("witness.hub-tls.enabled") + ": true), as the"
                                + " bearer token goes with every report; or "
                                + problems.name("witness.token-over-plaintext") + ": true on a private network");
            }
        }
        if (!token().configured() && !hubTls.clientCertificate()) {
            problems.reject(
                    "witness",
                    "a witness without a credential",
                    "a credential the hub recognises: the file or variable holding this witness's bearer token ("
                            + problems.name("witness.token-file") + " or " + problems.name("witness.token-env")
                            + "), or a client certificate (" + problems.name("witness.hub-tls.certificate-chain")
                            + ")");
        }
    }
}
