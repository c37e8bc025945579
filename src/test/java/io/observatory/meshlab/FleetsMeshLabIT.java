package io.observatory.meshlab;

import static io.observatory.meshlab.NetworkFault.dropIncoming;
import static io.observatory.meshlab.NetworkFault.dropOutgoing;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.api.v1.HealthState;
import io.observatory.mesh.api.v1.EntryPointStatus;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.PathStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WitnessStatus;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.WitnessAssignment;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The fleets operators run, under real network faults (see {@link MeshLabFleet} for the lab): three servers s1-s3 in
 * one route {@code r} at sites de, nl, fr, first without a checker, then with w1 a checker; then five servers, s1 and
 * s2 in one country (site ru); then the same five with {@code assignment: k-per-server}, two witnesses per server. The
 * hub's fleet changes by its file, as an operator changes it, while the five witnesses keep running (w4 and w5 are
 * refused while they are not in the fleet, and report as soon as they are).
 */
class FleetsMeshLabIT extends MeshLabFleet {

    private static final Fleet THREE = new Fleet(List.of("de", "nl", "fr"), List.of("r", "r", "r"), Set.of());
    private static final Fleet THREE_WITH_CHECKER = new Fleet(THREE.sites(), THREE.routes(), Set.of(1));
    private static final Fleet FIVE_ONE_COUNTRY =
            new Fleet(List.of("ru", "ru", "fr", "us", "nl"), List.of("r", "r", "r", "r", "r"), Set.of());
    private static final Fleet FIVE_TWO_PER_SERVER =
            new Fleet(List.of("de", "nl", "fr", "us", "pl"), List.of("r", "r", "r", "r", "r"), Set.of(), 2);

    @Override
    Fleet initialFleet() {
        return THREE;
    }

    @Override
    int witnessProcesses() {
        return 5;
    }

    private String entryPort() {
        return " tcp dport " + lab.entryPort();
    }

    /** Nobody leaves rotation and {@code s1}…{@code s3} stay OK. */
    private static final Consumer<GetMeshResponse> NOBODY_REMOVED =
            mesh -> assertThat(mesh.getServersList()).allSatisfy(server -> {
                assertThat(server.getInRotation())
                        .as(server.getName() + " in rotation")
                        .isTrue();
                assertThat(server.getStatus()).as(server.getName() + " status").isEqualTo(MeshStatus.MESH_STATUS_OK);
            });

    @Test
    @Order(1)
    void threeServersWhenS3IsBlockedForS1OnlyThenPairCutNamingBothAndNobodyRemoved() throws InterruptedException {
        awaitHealed("before s1 loses s3");
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "3 servers: s1 cannot reach s3, s2 can",
                dropIncoming(namespace(3), "ip saddr " + address(1) + entryPort()))) {
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s3/main marked PAIR_CUT",
                    mesh -> entryPoint(mesh, "s3").getMarksCount() == 1,
                    NOBODY_REMOVED);
            hold(HOLD, "s1 cannot reach s3", mesh -> {
                NOBODY_REMOVED.accept(mesh);
                EntryPointStatus s3 = entryPoint(mesh, "s3");
                assertThat(s3.getMarksList()).containsExactly("PAIR_CUT");
                assertThat(s3.getRanked()).isTrue();
                assertThat(s3.getReason()).startsWith("pair cut: server s1 (witness w1) cannot reach s3/main");
                assertThat(witness(mesh, "w1").getReliable()).isTrue();
            });
            assertThat(route("r").getServersList()).containsExactly("s1", "s2", "s3");
            awaitVerdict("s3/main", HealthState.HEALTH_STATE_DEGRADED, true);

            Duration healed = heal(cut);
            record(
                    cut,
                    "s3/main PAIR_CUT naming s1 and s3, ranked last, nobody removed, in " + bounded(detected),
                    healed,
                    detected);
        }
    }

    @Test
    @Order(2)
    void threeServersWhenS3CannotReachAnyoneThenItsMarksShownItsWitnessFlaggedNobodyRemoved()
            throws InterruptedException {
        awaitHealed("before s3's outgoing path is censored");
        long start = System.nanoTime();
        try (NetworkFault censored = fault(
                "3 servers: s3 reaches neither s1 nor s2 (its outgoing path censored)",
                dropOutgoing(namespace(3), "ip daddr { " + address(1) + ", " + address(2) + " }" + entryPort()))) {
            Duration detected = until(
                    start,
                    PATIENCE,
                    "w3 flagged and s1/main, s2/main marked",
                    mesh -> !witness(mesh, "w3").getReliable()
                            && entryPoint(mesh, "s1").getMarksCount() == 1
                            && entryPoint(mesh, "s2").getMarksCount() == 1,
                    NOBODY_REMOVED);
            hold(HOLD, "s3's outgoing path censored", mesh -> {
                NOBODY_REMOVED.accept(mesh);
                WitnessStatus w3 = witness(mesh, "w3");
                assertThat(w3.getReliable()).isFalse();
                assertThat(w3.getReason()).isEqualTo("cannot reach any of the 2 neighbours it probes");
                for (String server : List.of("s1", "s2")) {
                    EntryPointStatus entry = entryPoint(mesh, server);
                    assertThat(entry.getMarksList()).as(server + "/main marks").containsExactly("PAIR_CUT");
                    assertThat(entry.getRanked()).as(server + "/main ranked").isFalse();
                    assertThat(entry.getReason())
                            .startsWith("pair cut: server s3 (witness w3) cannot reach " + server + "/main");
                }
                assertThat(entryPoint(mesh, "s3").getMarksList()).isEmpty();
            });
            assertThat(route("r").getServersList()).containsExactly("s1", "s2", "s3");
            assertVerdicts(HealthState.HEALTH_STATE_HEALTHY);

            Duration healed = heal(censored);
            record(
                    censored,
                    "s1/main and s2/main PAIR_CUT naming s3, not ranked; w3 UNRELIABLE; nobody removed, in "
                            + bounded(detected),
                    healed,
                    detected);
        }
    }

    @Test
    @Order(3)
    void threeServersWhenS3IsCutBothWaysThenUnreachableFromTheOtherTwo() throws InterruptedException {
        awaitHealed("before s3 is cut both ways");
        long start = System.nanoTime();
        String others = "{ " + address(1) + ", " + address(2) + " }";
        try (NetworkFault cut = fault(
                "3 servers: s3 cut both ways",
                dropIncoming(namespace(3), "ip saddr " + others + entryPort()),
                dropOutgoing(namespace(3), "ip daddr " + others + entryPort()))) {
            Consumer<GetMeshResponse> othersServed = mesh -> {
                for (String other : List.of("s1", "s2")) {
                    ServerStatus server = server(mesh, other);
                    assertThat(server.getInRotation())
                            .as(other + " in rotation")
                            .isTrue();
                    assertThat(server.getStatus()).as(other + " status").isEqualTo(MeshStatus.MESH_STATUS_OK);
                }
            };
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s3 UNREACHABLE_FROM_SERVERS",
                    mesh -> server(mesh, "s3").getStatus() == MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS,
                    othersServed);
            hold(HOLD, "s3 cut both ways", mesh -> {
                othersServed.accept(mesh);
                ServerStatus s3 = server(mesh, "s3");
                assertThat(s3.getStatus()).isEqualTo(MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS);
                assertThat(s3.getVoters()).isEqualTo(2);
                assertThat(s3.getInRotation()).isFalse();
            });
            assertThat(route("r").getServersList()).containsExactly("s1", "s2");
            awaitVerdict("s3/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            Duration healed = heal(cut);
            record(cut, "s3 UNREACHABLE_FROM_SERVERS(2), out of rotation, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(4)
    void threeServersWhenTheCheckerS1CannotReachS3ThenS3BlockedAndOutOfRotation()
            throws InterruptedException, IOException {
        changeFleet(THREE_WITH_CHECKER);
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "3 servers, s1 a checker: s1 cannot reach s3",
                dropIncoming(namespace(3), "ip saddr " + address(1) + entryPort()))) {
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s3 BLOCKED, out of rotation",
                    mesh -> server(mesh, "s3").getStatus() == MeshStatus.MESH_STATUS_BLOCKED
                            && !server(mesh, "s3").getInRotation(),
                    othersOk("s3"));
            hold(HOLD, "the checker cannot reach s3", othersOk("s3"));
            assertThat(server(mesh(), "s3").getReason()).startsWith("checker cannot reach s3/main: w1 (site de)");
            assertThat(route("r").getServersList()).containsExactly("s1", "s2");
            awaitVerdict("s3/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            Duration healed = heal(cut);
            record(cut, "s3 BLOCKED, out of rotation, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(5)
    void fiveServersWhenS5IsBlockedInTheCountryOfS1AndS2ThenUnreachableFromBoth()
            throws InterruptedException, IOException {
        changeFleet(FIVE_ONE_COUNTRY);
        long start = System.nanoTime();
        try (NetworkFault blocked = fault(
                "5 servers: s5 blocked in the country of s1 and s2 (site ru)",
                dropIncoming(namespace(5), "ip saddr { " + address(1) + ", " + address(2) + " }" + entryPort()))) {
            Duration detected = s5UnreachableFrom(start, "s5 blocked in ru", List.of("w1", "w2"));
            assertThat(server(mesh(), "s5").getReason())
                    .startsWith("cannot reach s5/main: w1 (site ru) streak ")
                    .contains(", w2 (site ru) streak ");
            assertThat(route("r").getServersList()).containsExactly("s1", "s2", "s3", "s4");
            awaitVerdict("s5/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            Duration healed = heal(blocked);
            record(
                    blocked,
                    "s5 UNREACHABLE_FROM_SERVERS(2) from two witnesses of one site, in " + bounded(detected),
                    healed,
                    detected);
        }
    }

    @Test
    @Order(6)
    void fiveServersProbedTwoEachWhenS5IsCutFromBothOfItsWitnessesThenUnreachableFromThem()
            throws InterruptedException, IOException {
        changeFleet(FIVE_TWO_PER_SERVER);
        GetMeshResponse assigned = mesh();
        MeshFleet judged = new MeshFleet(
                assigned.getServersList().stream()
                        .map(server -> new MeshFleet.Server(server.getName(), server.getRoute(), List.of("main")))
                        .toList(),
                assigned.getWitnessesList().stream()
                        .map(witness -> new MeshFleet.Witness(
                                witness.getName(), witness.getSite(), witness.getServer(), witness.getChecker()))
                        .toList());
        WitnessAssignment expected = WitnessAssignment.perServer(judged, 2);
        for (ServerStatus server : assigned.getServersList()) {
            assertThat(assigned.getPathsList().stream()
                            .filter(path -> path.getServer().equals(server.getName()))
                            .map(PathStatus::getWitness)
                            .sorted()
                            .toList())
                    .as("the witnesses that report on %s: the two the hub handed it", server.getName())
                    .isEqualTo(expected.witnessesOf(server.getName()));
        }
        List<String> probers = expected.witnessesOf("s5");
        String from = probers.stream()
                .map(witness -> address(Integer.parseInt(witness.substring(1))))
                .collect(Collectors.joining(", "));
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "5 servers, 2 witnesses each: s5 cut from its two, " + probers,
                dropIncoming(namespace(5), "ip saddr { " + from + " }" + entryPort()))) {
            Duration detected = s5UnreachableFrom(start, "s5 cut from its witnesses", probers);
            assertThat(mesh().getWitnessesList())
                    .as("each voter fails one of the few neighbours it is assigned: a share, not all")
                    .allSatisfy(witness -> assertThat(witness.getReliable())
                            .as(witness.getName())
                            .isTrue());
            awaitVerdict("s5/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            Duration healed = heal(cut);
            record(
                    cut,
                    "s5 UNREACHABLE_FROM_SERVERS(2) from the 2 witnesses assigned to it, in " + bounded(detected),
                    healed,
                    detected);
        }
    }

    /**
     * Waits until s5 is UNREACHABLE_FROM_SERVERS by the votes of {@code voters} (two), every other server OK
     * meanwhile, and holds it for {@link #HOLD}.
     *
     * @return how long it took from {@code start}
     */
    private Duration s5UnreachableFrom(long start, String holding, List<String> voters) throws InterruptedException {
        Duration detected = until(
                start,
                PATIENCE,
                "s5 UNREACHABLE_FROM_SERVERS",
                mesh -> server(mesh, "s5").getStatus() == MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS,
                othersOk("s5"));
        hold(HOLD, holding, othersOk("s5"));
        ServerStatus s5 = server(mesh(), "s5");
        assertThat(s5.getVoters()).isEqualTo(2);
        assertThat(s5.getReason())
                .startsWith("cannot reach s5/main: " + voters.get(0) + " (site ")
                .contains(", " + voters.get(1) + " (site ");
        return detected;
    }

    @Test
    @Order(7)
    void fleetWhenEveryFaultHasEndedThenEveryWitnessAliveAndTheFleetHealthy() throws InterruptedException {
        awaitHealed("after every fault");
        assertThat(mesh().getServersCount()).isEqualTo(5);
        assertThat(witnesses)
                .allSatisfy(witness ->
                        assertThat(witness.alive()).as(witness.name()).isTrue());
    }
}
