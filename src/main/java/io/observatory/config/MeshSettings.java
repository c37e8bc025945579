package io.observatory.config;

import io.observatory.health.mesh.MeshFleet;
import io.observatory.health.mesh.MeshRules;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh}: multi-vantage verdicts. A <b>hub</b> defines the fleet ({@code servers},
 * {@code witnesses}), takes the witnesses' reports and judges; a <b>witness</b> needs only its name, the hubs and
 * its credential, fetches the fleet from a hub and probes every other server's entry points. Costs per server its
 * entry points (each an {@link Outbound}), per witness seven references.
 *
 * @param role            off, witness, hub or hub-and-witness. Default: off
 * @param servers         (hub) the fleet's servers; names unique. Default: none
 * @param witnesses       (hub) who may report; names unique. Default: none
 * @param streak          (hub) consecutive failed probes of one entry point by one witness that make a vote, at least
 *                        1. Default: 3
 * @param quorum          (hub) distinct sites of reliable witnesses whose votes make a server unreachable, at least 1.
 *                        Default: 2
 * @param unreliableShare (hub) share of its probed neighbours a witness votes against at which its votes are set
 *                        aside, above 0 and at most 1. Default: 0.5
 * @param reportInterval  (hub) how often witnesses report, positive; handed to them with the fleet. Default: 10s
 * @param noDataAfter     (hub) how long without a self-report makes a server's status NO_DATA, positive. Default:
 *                        3 × report-interval
 * @param probe           (hub) how witnesses probe the entry points
 * @param self            (witness) who this witness is and its self-checks
 * @param hubs            (witness) the hubs, each {@code host:port}; a name that resolves to several addresses (a
 *                        Kubernetes headless Service) means every address, resolved again each report. Required for
 *                        role witness
 * @param tokenFile       (witness) file holding the bearer token this witness presents. At most one of token-file
 *                        and token-env; one of them, or a client certificate in hub-tls, is required for role witness
 * @param tokenEnv        (witness) environment variable holding that token
 * @param hubTls          (witness) TLS to the hubs, and the client certificate a hub may recognise it by instead of
 *                        a token
 */
public record MeshSettings(
        @DefaultValue("off") MeshRole role,
        @DefaultValue List<MeshServerSettings> servers,
        @DefaultValue List<MeshWitnessSettings> witnesses,
        @DefaultValue("3") @Min(value = 1, message = ">= 1") int streak,
        @DefaultValue("2") @Min(value = 1, message = ">= 1") int quorum,

        @DefaultValue("0.5")
        @DecimalMin(value = "0", inclusive = false, message = "> 0 and <= 1")
        @DecimalMax(value = "1", message = "> 0 and <= 1")
        double unreliableShare,

        @DefaultValue("10s") @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration reportInterval,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration noDataAfter,

        @DefaultValue @NestedConfigurationProperty MeshProbeSettings probe,
        @DefaultValue @NestedConfigurationProperty MeshSelfSettings self,
        @DefaultValue List<String> hubs,
        @Nullable String tokenFile,
        @Nullable String tokenEnv,
        @DefaultValue @NestedConfigurationProperty MeshHubTlsSettings hubTls)
        implements CrossFieldValidated {

    private static final String PROPERTY = ObservatoryConfigBinder.PREFIX + ".mesh";

    public MeshSettings {
        servers = List.copyOf(servers);
        witnesses = List.copyOf(witnesses);
        hubs = hubs.stream().map(String::strip).toList();
        TokenLocation token = new TokenLocation(tokenFile, tokenEnv, PROPERTY);
        tokenFile = token.file();
        tokenEnv = token.variable();
    }

    /** The verdict settings, {@code no-data-after} defaulted. */
    public MeshRules rules() {
        return new MeshRules(
                streak, quorum, unreliableShare, noDataAfter != null ? noDataAfter : reportInterval.multipliedBy(3));
    }

    /** The fleet as the judge sees it; empty unless this instance is a hub. */
    public MeshFleet fleet() {
        if (!role.hub()) {
            return new MeshFleet(List.of(), List.of());
        }
        return new MeshFleet(
                servers.stream()
                        .map(server -> new MeshFleet.Server(
                                server.name(),
                                server.route(),
                                server.entryPoints().stream()
                                        .map(MeshEntryPointSettings::name)
                                        .toList()))
                        .toList(),
                witnesses.stream()
                        .map(witness -> new MeshFleet.Witness(
                                witness.name(), witness.site(), witness.server(), witness.checker()))
                        .toList());
    }

    /** Every entry point as the outbound {@code <server>/<entry>}, in configuration order; none unless a hub. */
    public List<Outbound> entryPointOutbounds() {
        if (!role.hub()) {
            return List.of();
        }
        List<Outbound> outbounds = new ArrayList<>();
        servers.forEach(server -> server.entryPoints().forEach(entry -> outbounds.add(entry.outbound(server.name()))));
        return outbounds;
    }

    /** The hubs a witness reports to, validated. */
    public List<HostPort> hubAddresses() {
        return hubs.stream().map(HostPort::parse).map(Objects::requireNonNull).toList();
    }

    /** Where this witness's own token is kept. */
    public TokenLocation token() {
        return new TokenLocation(tokenFile, tokenEnv, PROPERTY);
    }

    /** The section of witness {@code index}, e.g. {@code observatory.mesh.witnesses[2]}, for run-time messages. */
    public static String witnessProperty(int index) {
        return PROPERTY + ".witnesses[" + index + "]";
    }

    @Override
    public void validate(Violations violations) {
        if (!role.hub()) {
            rejectIfSet(violations, "servers", servers.size(), "the hub defines the fleet; witnesses fetch it");
            rejectIfSet(violations, "witnesses", witnesses.size(), "the hub defines the fleet; witnesses fetch it");
        }
        if (!role.witness()) {
            rejectIfSet(violations, "hubs", hubs.size(), "only a witness reports to hubs");
            rejectIfSet(violations, "hub-tls.enabled", hubTls.enabled() ? 1 : 0, "only a witness calls hubs");
            if (self.name() != null || !self.checks().isEmpty()) {
                violations.reject(
                        "self",
                        "set while role is " + roleName(),
                        "no self section unless observatory.mesh.role is witness or hub-and-witness");
            }
        }
        if (role.hub()) {
            validateFleet(violations);
        }
        if (role.witness()) {
            validateWitness(violations);
        }
    }

    private void validateFleet(Violations violations) {
        if (servers.isEmpty()) {
            violations.reject("servers", "none", "at least one server for role " + roleName());
        }
        Map<String, Integer> serverIndex = new HashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            String name = servers.get(i).name();
            Integer first = name == null ? null : serverIndex.putIfAbsent(name, i);
            if (first != null) {
                violations.reject(
                        "servers[" + i + "].name",
                        "a unique name; " + Violations.sibling("servers[" + first + "].name") + " is the same");
            }
        }
        Map<String, Integer> witnessIndex = new HashMap<>();
        Map<String, Integer> subjectIndex = new HashMap<>();
        for (int i = 0; i < witnesses.size(); i++) {
            MeshWitnessSettings witness = witnesses.get(i);
            Integer first = witness.name() == null ? null : witnessIndex.putIfAbsent(witness.name(), i);
            if (first != null) {
                violations.reject(
                        "witnesses[" + i + "].name",
                        "a unique name; " + Violations.sibling("witnesses[" + first + "].name") + " is the same");
            }
            if (witness.server() != null && !serverIndex.containsKey(witness.server())) {
                violations.reject(
                        "witnesses[" + i + "].server",
                        witness.server(),
                        "the name of one of observatory.mesh.servers "
                                + serverIndex.keySet().stream().sorted().toList()
                                + ", or nothing for an external vantage point");
            }
            Integer sameSubject = witness.certificateSubject() == null
                    ? null
                    : subjectIndex.putIfAbsent(witness.certificateSubject(), i);
            if (sameSubject != null) {
                violations.reject(
                        "witnesses[" + i + "].certificate-subject",
                        witness.certificateSubject(),
                        "a subject no other witness has; "
                                + Violations.sibling("witnesses[" + sameSubject + "].certificate-subject")
                                + " is the same");
            }
            boolean local = role == MeshRole.HUB_AND_WITNESS && Objects.equals(witness.name(), self.name());
            if (!local && !witness.credentialed()) {
                violations.reject(
                        "witnesses[" + i + "]",
                        "no credential",
                        "a token-file, token-env or certificate-subject, by which the hub recognises the witness");
            }
        }
    }

    private void validateWitness(Violations violations) {
        if (self.name() == null) {
            violations.reject("self.name", "none", "this witness's name, as the hub knows it");
        }
        if (role == MeshRole.HUB_AND_WITNESS) {
            if (self.name() != null
                    && witnesses.stream().noneMatch(w -> self.name().equals(w.name()))) {
                violations.reject("self.name", self.name(), "the name of one of observatory.mesh.witnesses");
            }
            return;
        }
        if (hubs.isEmpty()) {
            violations.reject("hubs", "none", "at least one hub, " + HostPort.EXPECTED);
        }
        for (int i = 0; i < hubs.size(); i++) {
            if (HostPort.parse(hubs.get(i)) == null) {
                violations.reject("hubs[" + i + "]", HostPort.EXPECTED);
            }
        }
        if (!token().configured() && !hubTls.clientCertificate()) {
            violations.reject(
                    "role",
                    roleName() + " without a credential",
                    "a credential the hub recognises too:"
                            + " the file or variable holding this witness's bearer token ("
                            + Violations.sibling("token-file")
                            + " or " + Violations.sibling("token-env") + "), or a client certificate ("
                            + Violations.sibling("hub-tls.certificate-chain") + ")");
        }
        token().validate(violations, "this witness's bearer token");
    }

    private void rejectIfSet(Violations violations, String property, int size, String why) {
        if (size > 0) {
            violations.reject(property, "set while role is " + roleName(), "nothing here: " + why);
        }
    }

    private String roleName() {
        return role.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
