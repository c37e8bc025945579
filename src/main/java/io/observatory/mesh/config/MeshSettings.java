package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.ConfigSection;
import io.observatory.config.Outbound;
import io.observatory.config.Problems;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * {@code observatory.mesh}: multi-vantage verdicts. A <b>hub</b> ({@code hub}) defines the fleet, takes the
 * witnesses' reports and judges; a <b>witness</b> ({@code witness}) needs only its name, the hubs and its credential,
 * fetches the fleet from a hub and probes every other server's entry points. The role follows from which section is
 * set: {@code hub} alone is a hub, {@code witness} alone a witness, both a hub that is one of its own witnesses,
 * neither no mesh at all.
 *
 * @param hub     this instance as a hub: the fleet, who may report, the verdict rules. Default: not a hub
 * @param witness this instance as a witness: its name, self-checks, hubs and credential. Default: not a witness
 */
@ConfigurationProperties("observatory.mesh")
public record MeshSettings(
        @Nullable @NestedConfigurationProperty HubSettings hub,
        @Nullable @NestedConfigurationProperty WitnessSettings witness)
        implements Checked {

    /** The mesh's section of the configuration. */
    public static final ConfigSection<MeshSettings> SECTION = new Section();

    /** No mesh: neither a hub nor a witness. */
    public static final MeshSettings OFF = new MeshSettings(null, null);

    /** The report interval of a witness until a hub says otherwise: this hub's, else the hubs' default, 10 s. */
    public static final Duration DEFAULT_REPORT_INTERVAL = Duration.ofSeconds(10);

    /** The fleet as the judge sees it; empty unless this instance is a hub. */
    public MeshFleet fleet() {
        return hub == null ? new MeshFleet(List.of(), List.of()) : hub.fleet();
    }

    /** The verdict rules: a hub's, else the defaults, which judge nothing on an instance that is no hub. */
    public MeshRules rules() {
        return hub == null ? MeshRules.DEFAULTS : hub.rules();
    }

    /** How often a witness of this instance reports until a hub says otherwise. */
    public Duration initialReportInterval() {
        return hub == null ? DEFAULT_REPORT_INTERVAL : hub.reportInterval();
    }

    /** The role that follows from the sections set. */
    public MeshRole role() {
        if (hub != null) {
            return witness != null ? MeshRole.HUB_AND_WITNESS : MeshRole.HUB;
        }
        return witness != null ? MeshRole.WITNESS : MeshRole.OFF;
    }

    @Override
    public void check(Problems problems) {
        if (hub != null) {
            String local = witness == null ? null : witness.name();
            for (int i = 0; i < hub.witnesses().size(); i++) {
                FleetWitnessSettings known = hub.witnesses().get(i);
                if (!known.credentialed() && (local == null || !local.equals(known.name()))) {
                    problems.reject(
                            "hub.witnesses[" + i + "]",
                            "no credential",
                            "a token-file, token-env or certificate-subject, by which the hub recognises the witness");
                }
            }
        }
        if (witness != null && hub == null) {
            witness.checkRemote(problems);
        }
        if (hub == null || witness == null) {
            return;
        }
        // A hub that is one of its own witnesses: its reports go to itself, as the witness of its fleet it names.
        if (witness.name() != null
                && hub.witnesses().stream().noneMatch(known -> witness.name().equals(known.name()))) {
            problems.reject(
                    "witness.name",
                    witness.name(),
                    "the name of one of " + problems.name("hub.witnesses") + ", as this hub is one of its witnesses");
        }
        if (!witness.hubs().isEmpty()) {
            problems.reject(
                    "witness.hubs",
                    "set while this instance is a hub",
                    "nothing: a hub that is one of its witnesses reports to itself");
        }
    }

    /** The section: bound at {@code observatory.mesh}; a hub adds its entry points to the observation. */
    private static final class Section implements ConfigSection<MeshSettings> {

        @Override
        public String key() {
            return "mesh";
        }

        @Override
        public Class<MeshSettings> type() {
            return MeshSettings.class;
        }

        /** Every entry point of a hub's fleet as the outbound {@code <server>/<entry>}, in configuration order. */
        @Override
        public Map<String, Outbound> outbounds(MeshSettings settings) {
            HubSettings hub = settings.hub();
            if (hub == null) {
                return Map.of();
            }
            Map<String, Outbound> outbounds = new LinkedHashMap<>();
            List<FleetServerSettings> servers = hub.servers();
            for (int i = 0; i < servers.size(); i++) {
                FleetServerSettings server = servers.get(i);
                for (int j = 0; j < server.entryPoints().size(); j++) {
                    outbounds.put(
                            "observatory.mesh.hub.servers[" + i + "].entry-points[" + j + "]",
                            server.entryPoints().get(j).outbound(server.name()));
                }
            }
            return outbounds;
        }

        /** Each route of a hub's fleet as {@code route/<route>}: the entry points of the servers it serves. */
        @Override
        public Map<String, List<String>> groups(MeshSettings settings) {
            HubSettings hub = settings.hub();
            if (hub == null) {
                return Map.of();
            }
            Map<String, List<String>> routes = new LinkedHashMap<>();
            for (FleetServerSettings server : hub.servers()) {
                List<String> tags = routes.computeIfAbsent("route/" + server.route(), route -> new ArrayList<>());
                server.entryPoints()
                        .forEach(entry -> tags.add(entry.outbound(server.name()).tag()));
            }
            return routes;
        }

        @Override
        public boolean active(MeshSettings settings) {
            return settings.role() != MeshRole.OFF;
        }
    }
}
