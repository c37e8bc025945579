package io.observatory.mesh.config;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.judge.WitnessAssignment;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh.hub}: this instance as a hub. It defines the fleet ({@code servers}, {@code witnesses}),
 * takes the witnesses' reports and judges them by the rules below. Costs per server its entry points (each an
 * outbound), per witness seven references.
 *
 * @param servers         the fleet's servers, at least one; names unique. Required
 * @param witnesses       who may report; names unique. Default: none
 * @param streak          consecutive failed probes of one entry point by one witness that make a vote, and consecutive
 *                        successful ones that end it, at least 1. Default: 3
 * @param quorum          reliable witnesses whose votes make a server unreachable, at least 1. Default: 2
 * @param quorumSites     distinct sites the witnesses of a quorum must also come from, at least 0; 0 turns the rule
 *                        off. Default: 0
 * @param unreliableShare share of its probed neighbours a witness may fail with no other witness failing them before
 *                        its votes are set aside (checkers excepted), above 0 and at most 1. Default: 0.5
 * @param reportInterval  how often witnesses report, a positive duration; handed to them with the fleet. Default: 10s
 * @param noDataAfter     how long without a self-report makes a server's status NO_DATA, a positive duration.
 *                        Default: 3 × report-interval
 * @param probe           how witnesses probe the entry points
 * @param assignment      which servers each witness probes: {@code full} (every server but its own) or
 *                        {@code k-per-server} ({@code witnesses-per-server} witnesses per server, of as many sites as
 *                        there are, plus the checkers; {@link WitnessAssignment}). Default: full up to
 *                        100 servers ({@code FULL_UP_TO}), k-per-server above
 * @param witnessesPerServer with {@code k-per-server}, how many witnesses probe each server besides the checkers, at
 *                        least 1. Default: 5
 */
public record HubSettings(
        @DefaultValue List<FleetServerSettings> servers,
        @DefaultValue List<FleetWitnessSettings> witnesses,
        @DefaultValue("3") @Min(value = 1, message = ">= 1") int streak,
        @DefaultValue("2") @Min(value = 1, message = ">= 1") int quorum,
        @DefaultValue("0") @Min(value = 0, message = ">= 0") int quorumSites,

        @DefaultValue("0.5")
        @DecimalMin(value = "0", inclusive = false, message = "> 0 and <= 1")
        @DecimalMax(value = "1", message = "> 0 and <= 1")
        double unreliableShare,

        @DefaultValue("10s") @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration reportInterval,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = "a positive duration")
        Duration noDataAfter,

        @DefaultValue @NestedConfigurationProperty MeshProbeSettings probe,
        @Nullable Assignment assignment,
        @DefaultValue("5") @Min(value = 1, message = ">= 1") int witnessesPerServer)
        implements Checked {

    /** The largest fleet whose witnesses all probe every server unless {@code assignment} says otherwise. */
    public static final int FULL_UP_TO = 100;

    /** Which servers each witness probes. */
    public enum Assignment {
        /** Every server but its own: N² probes an interval. */
        FULL,
        /** {@code witnesses-per-server} witnesses per server, plus the checkers: N × k probes an interval. */
        K_PER_SERVER
    }

    public HubSettings {
        servers = List.copyOf(servers);
        witnesses = List.copyOf(witnesses);
    }

    /** The verdict rules, {@code no-data-after} defaulted. */
    public MeshRules rules() {
        return new MeshRules(
                streak,
                quorum,
                quorumSites,
                unreliableShare,
                noDataAfter != null ? noDataAfter : reportInterval.multipliedBy(3));
    }

    /** The fleet as the judge sees it. */
    public MeshFleet fleet() {
        return new MeshFleet(
                servers.stream()
                        .map(server -> new MeshFleet.Server(
                                server.name(),
                                server.route(),
                                server.entryPoints().stream()
                                        .map(EntryPointSettings::name)
                                        .toList()))
                        .toList(),
                witnesses.stream()
                        .map(witness -> new MeshFleet.Witness(
                                witness.name(), witness.site(), witness.server(), witness.checker()))
                        .toList());
    }

    /** The assignment in force: as set, else full up to {@value #FULL_UP_TO} servers and k-per-server above. */
    public Assignment assignmentInForce() {
        if (assignment != null) {
            return assignment;
        }
        return servers.size() <= FULL_UP_TO ? Assignment.FULL : Assignment.K_PER_SERVER;
    }

    /** Which servers each witness of {@code fleet} (this section's) probes: O(servers × witnesses) for k-per-server. */
    public WitnessAssignment witnessAssignment(MeshFleet fleet) {
        return assignmentInForce() == Assignment.FULL
                ? WitnessAssignment.full(fleet)
                : WitnessAssignment.perServer(fleet, witnessesPerServer);
    }

    /** The section of witness {@code index}, e.g. {@code observatory.mesh.hub.witnesses[2]}, for run-time messages. */
    public static String witnessProperty(int index) {
        return "observatory.mesh.hub.witnesses[" + index + "]";
    }

    @Override
    public void check(Problems problems) {
        if (servers.isEmpty()) {
            problems.reject("servers", "none", "at least one server");
        }
        if (assignmentInForce() == Assignment.K_PER_SERVER) {
            String probedBy = "at most " + problems.name("witnesses-per-server") + " (" + witnessesPerServer
                    + ") with assignment k-per-server: no more witnesses probe a server";
            if (quorum > witnessesPerServer) {
                problems.reject("quorum", String.valueOf(quorum), probedBy);
            }
            if (quorumSites > witnessesPerServer) {
                problems.reject("quorum-sites", String.valueOf(quorumSites), probedBy);
            }
        }
        Map<String, Integer> serverIndex = new HashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            String name = servers.get(i).name();
            Integer first = name == null ? null : serverIndex.putIfAbsent(name, i);
            if (first != null) {
                problems.reject(
                        "servers[" + i + "].name",
                        "a unique name; " + problems.name("servers[" + first + "].name") + " is the same");
            }
        }
        Map<String, Integer> witnessIndex = new HashMap<>();
        Map<String, Integer> subjectIndex = new HashMap<>();
        for (int i = 0; i < witnesses.size(); i++) {
            FleetWitnessSettings witness = witnesses.get(i);
            Integer first = witness.name() == null ? null : witnessIndex.putIfAbsent(witness.name(), i);
            if (first != null) {
                problems.reject(
                        "witnesses[" + i + "].name",
                        "a unique name; " + problems.name("witnesses[" + first + "].name") + " is the same");
            }
            if (witness.server() != null && !serverIndex.containsKey(witness.server())) {
                problems.reject(
                        "witnesses[" + i + "].server",
                        witness.server(),
                        "the name of one of " + problems.name("servers") + " "
                                + serverIndex.keySet().stream().sorted().toList()
                                + ", or nothing for an external vantage point");
            }
            String subject = witness.certificateSubject();
            Integer sameSubject = subject == null ? null : subjectIndex.putIfAbsent(subject, i);
            if (subject != null && sameSubject != null) {
                problems.reject(
                        "witnesses[" + i + "].certificate-subject",
                        subject,
                        "a subject no other witness has; "
                                + problems.name("witnesses[" + sameSubject + "].certificate-subject") + " is the same");
            }
        }
    }
}
