package io.observatory.meshlab;

import static io.observatory.meshlab.NetworkFault.dropIncoming;
import static io.observatory.meshlab.NetworkFault.dropOutgoing;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.observatory.api.v1.HealthState;
import io.observatory.mesh.api.v1.EntryPointStatus;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.PathStatus;
import io.observatory.mesh.api.v1.RouteStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WitnessStatus;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The mesh under real network faults in a fleet of four (see {@link MeshLabFleet} for the lab): servers s1-s4, routes
 * s1, s2 serve {@code eu}, s3, s4 serve {@code world}; sites de, nl, fr, us; w3 is a checker. A lab of more namespaces
 * leaves the others to {@link FleetsMeshLabIT}.
 */
class MeshLabIT extends MeshLabFleet {

    /** w3, the witness on s3, is the checker. */
    private static final int CHECKER = 3;

    @Override
    Fleet initialFleet() {
        return new Fleet(List.of("de", "nl", "fr", "us"), List.of("eu", "eu", "world", "world"), Set.of(CHECKER));
    }

    @Override
    int witnessProcesses() {
        return 4;
    }

    @Test
    @Order(1)
    void fleetWhenNothingIsCutThenEveryoneReachesEveryoneAndEveryRouteServesBoth() {
        GetMeshResponse mesh = mesh();
        assertThat(mesh.getServersList()).extracting(ServerStatus::getStatus).containsOnly(MeshStatus.MESH_STATUS_OK);
        assertThat(mesh.getWitnessesList()).allSatisfy(witness -> {
            assertThat(witness.getReliable()).isTrue();
            assertThat(witness.getNeighbours()).isEqualTo(3);
        });
        assertThat(witness(mesh, "w" + CHECKER).getChecker()).isTrue();
        assertThat(mesh.getPathsList())
                .hasSize(12)
                .allSatisfy(path -> assertThat(path.getLastSuccess()).isTrue());
        assertThat(route("eu").getServersList()).containsExactly("s1", "s2");
        assertThat(route("world").getServersList()).containsExactly("s3", "s4");
        assertVerdicts(HealthState.HEALTH_STATE_HEALTHY);
    }

    @Test
    @Order(2)
    void serverWhenCutOffFromTwoSitesThenLeavesRotationWithinTheBoundAndComesBack() throws InterruptedException {
        awaitHealed("before the two-site cut");
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "two-site cut of s4 (w1/de and w2/nl cannot reach it)",
                dropIncoming(
                        namespace(4),
                        "ip saddr { " + address(1) + ", " + address(2) + " } tcp dport " + lab.entryPort()))) {
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s4 out of rotation",
                    mesh -> !server(mesh, "s4").getInRotation(),
                    othersOk("s4"));

            ServerStatus s4 = server(mesh(), "s4");
            assertThat(s4.getStatus()).isEqualTo(MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS);
            assertThat(s4.getVoters()).isEqualTo(2);
            assertThat(s4.getReason())
                    .startsWith("cannot reach s4/main: w1 (site de) streak ")
                    .contains(", w2 (site nl) streak ")
                    .doesNotContain("w3", "w4");
            assertThat(route("world").getServersList()).containsExactly("s3");
            awaitVerdict("s4/main", HealthState.HEALTH_STATE_UNHEALTHY, false);
            assertThat(health("s4/main")).isEqualTo(ServingStatus.NOT_SERVING);

            Duration healed = heal(cut);
            assertThat(route("world").getServersList()).containsExactly("s3", "s4");
            record(cut, "s4 UNREACHABLE_FROM_SERVERS(2), out of rotation, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(3)
    void entryPointWhenCutOneWayThenExactlyItIsPairCutAndNobodyLeavesRotation() throws InterruptedException {
        awaitHealed("before the one-way cut");
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "one-way cut s2 -> s1 (w2 cannot reach s1/main; w1 still reaches s2/main)",
                dropIncoming(namespace(1), "ip saddr " + address(2) + " tcp dport " + lab.entryPort()))) {
            Consumer<GetMeshResponse> invariant = nobodyRemovedMarksOnlyOn(Set.of("s1"));
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s1/main marked PAIR_CUT",
                    mesh -> entryPoint(mesh, "s1").getMarksList().equals(List.of("PAIR_CUT")),
                    invariant);
            hold(HOLD, "one-way cut s2 -> s1", mesh -> {
                invariant.accept(mesh);
                assertThat(entryPoint(mesh, "s1").getMarksList()).containsExactly("PAIR_CUT");
                assertThat(path(mesh, "w1", "s2").getLastSuccess())
                        .as("w1 -> s2/main, the other way")
                        .isTrue();
            });

            GetMeshResponse mesh = mesh();
            assertThat(entryPoint(mesh, "s1").getReason())
                    .startsWith("pair cut: server s2 (witness w2) cannot reach" + " s1/main");
            assertThat(route("eu").getServersList())
                    .as("the pair-cut server ranks last")
                    .containsExactly("s2", "s1");
            awaitVerdict("s1/main", HealthState.HEALTH_STATE_DEGRADED, true);
            assertThat(health("s1/main")).isEqualTo(ServingStatus.SERVING);
            assertThat(observed("s2/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);

            Duration healed = heal(cut);
            record(cut, "s1/main PAIR_CUT (only it), nobody removed, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(4)
    void pairWhenCutBothWaysThenBothEntryPointsArePairCutAndNobodyLeavesRotation() throws InterruptedException {
        awaitHealed("before the two-way cut");
        long start = System.nanoTime();
        String port = " tcp dport " + lab.entryPort();
        try (NetworkFault cut = fault(
                "two-way cut s1 <-> s2",
                dropIncoming(namespace(1), "ip saddr " + address(2) + port),
                dropIncoming(namespace(2), "ip saddr " + address(1) + port))) {
            Consumer<GetMeshResponse> invariant = nobodyRemovedMarksOnlyOn(Set.of("s1", "s2"));
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s1/main and s2/main marked PAIR_CUT",
                    mesh -> entryPoint(mesh, "s1").getMarksCount() == 1
                            && entryPoint(mesh, "s2").getMarksCount() == 1,
                    invariant);
            hold(HOLD, "two-way cut s1 <-> s2", invariant);

            GetMeshResponse mesh = mesh();
            assertThat(entryPoint(mesh, "s1").getMarksList()).containsExactly("PAIR_CUT");
            assertThat(entryPoint(mesh, "s2").getMarksList()).containsExactly("PAIR_CUT");
            assertThat(entryPoint(mesh, "s1").getReason())
                    .startsWith("pair cut: server s2 (witness w2) cannot reach" + " s1/main");
            assertThat(entryPoint(mesh, "s2").getReason())
                    .startsWith("pair cut: server s1 (witness w1) cannot reach" + " s2/main");
            assertThat(route("eu").getServersList()).containsExactly("s1", "s2");
            assertThat(route("eu").getPanic()).isFalse();
            awaitVerdict("s1/main", HealthState.HEALTH_STATE_DEGRADED, true);
            awaitVerdict("s2/main", HealthState.HEALTH_STATE_DEGRADED, true);

            Duration healed = heal(cut);
            record(cut, "s1/main and s2/main PAIR_CUT, nobody removed, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(5)
    void witnessWhenItsOutgoingPathBreaksThenItIsUnreliableItsMarksShownAndRemovesNobody() throws InterruptedException {
        awaitHealed("before w4's outgoing path breaks");
        long start = System.nanoTime();
        try (NetworkFault broken = fault(
                "w4's outgoing path broken (s4 cannot open connections to s1-s3; its reports"
                        + " to the hub and the others' probes of s4 still pass)",
                dropOutgoing(
                        namespace(4),
                        "ip daddr { " + address(1) + ", " + address(2) + ", " + address(3) + " } tcp dport "
                                + lab.entryPort()))) {
            Set<String> rankedMarks = new LinkedHashSet<>();
            Consumer<GetMeshResponse> nobodyRemoved = mesh -> {
                assertThat(mesh.getServersList())
                        .as("servers while w4's outgoing path is broken")
                        .allSatisfy(server -> {
                            assertThat(server.getInRotation()).isTrue();
                            assertThat(server.getStatus()).isEqualTo(MeshStatus.MESH_STATUS_OK);
                        });
                mesh.getServersList().stream()
                        .filter(server -> server.getEntryPoints(0).getRanked())
                        .forEach(server -> rankedMarks.add(server.getName()));
            };
            Duration detected = until(
                    start,
                    PATIENCE,
                    "w4 flagged unreliable, its marks shown on s1-s3",
                    mesh -> {
                        WitnessStatus w4 = witness(mesh, "w4");
                        return !w4.getReliable()
                                && w4.getShare() == 1.0
                                && List.of("s1", "s2", "s3").stream()
                                        .allMatch(server ->
                                                entryPoint(mesh, server).getMarksCount() == 1);
                    },
                    nobodyRemoved);
            hold(HOLD, "w4's outgoing path broken", mesh -> {
                nobodyRemoved.accept(mesh);
                assertThat(witness(mesh, "w4").getReliable()).isFalse();
                for (String server : List.of("s1", "s2", "s3")) {
                    EntryPointStatus entry = entryPoint(mesh, server);
                    assertThat(entry.getMarksList()).as(server + "/main marks").containsExactly("PAIR_CUT");
                    assertThat(entry.getRanked())
                            .as(server + "/main mark ranked")
                            .isFalse();
                    assertThat(entry.getReason())
                            .startsWith("pair cut: server s4 (witness w4) cannot reach " + server + "/main");
                }
                assertThat(entryPoint(mesh, "s4").getMarksList()).isEmpty();
            });

            GetMeshResponse mesh = mesh();
            WitnessStatus w4 = witness(mesh, "w4");
            assertThat(w4.getNeighbours()).isEqualTo(3);
            assertThat(w4.getReason()).isEqualTo("cannot reach any of the 3 neighbours it probes");
            long reportAgeMillis = System.currentTimeMillis()
                    - w4.getLastReportTime().getSeconds() * 1000
                    - w4.getLastReportTime().getNanos() / 1_000_000;
            assertThat(reportAgeMillis)
                    .as("age of w4's last report (its reports still arrive)")
                    .isLessThan(REPORT_INTERVAL.multipliedBy(2).toMillis());
            for (String other : List.of("w1", "w2", "w3")) {
                assertThat(path(mesh, other, "s4").getLastSuccess())
                        .as(other + " -> s4/main")
                        .isTrue();
            }
            List<PathStatus> failing = mesh.getPathsList().stream()
                    .filter(path -> path.getWitness().equals("w4"))
                    .toList();
            assertThat(failing)
                    .hasSize(3)
                    .allSatisfy(path -> assertThat(path.getFailures()).isGreaterThanOrEqualTo(STREAK));
            assertVerdicts(HealthState.HEALTH_STATE_HEALTHY);

            Duration healed = heal(broken);
            record(
                    broken,
                    "w4 UNRELIABLE (share 1.0), PAIR_CUT on s1-s3 naming s4, not ranked, nobody removed, in "
                            + bounded(detected) + "; its probes failed with "
                            + failing.get(0).getLastErrorKind().name().replace("PROBE_ERROR_KIND_", "")
                            + "; a ranked mark seen "
                            + (rankedMarks.isEmpty()
                                    ? "never"
                                    : "briefly on " + rankedMarks + " while w4's streaks were reaching " + STREAK
                                            + " one after the other"),
                    healed,
                    detected);
        }
    }

    @Test
    @Order(6)
    void serverWhenACheckerIsCutFromItThenBlockedOnlyWhileItsRouteHasAnother() throws InterruptedException {
        awaitHealed("before the checker cut");
        String port = " tcp dport " + lab.entryPort();
        long start = System.nanoTime();
        try (NetworkFault checkerCut =
                fault("checker w3 cut from s2", dropIncoming(namespace(2), "ip saddr " + address(CHECKER) + port))) {
            Duration blocked = until(
                    start,
                    PATIENCE,
                    "s2 BLOCKED and out of rotation",
                    mesh -> {
                        ServerStatus s2 = server(mesh, "s2");
                        return s2.getStatus() == MeshStatus.MESH_STATUS_BLOCKED && !s2.getInRotation();
                    },
                    othersOk("s2"));
            ServerStatus s2 = server(mesh(), "s2");
            assertThat(s2.getReason()).startsWith("checker cannot reach s2/main: w3 (site fr) streak ");
            assertThat(s2.getVoters()).isEqualTo(1);
            assertThat(route("eu").getServersList()).containsExactly("s1");
            awaitVerdict("s2/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            // s1, the other server of route eu, becomes unreachable from two sites (nl, us): s2 is all eu has left.
            Consumer<GetMeshResponse> s2StaysBlocked = mesh -> {
                assertThat(server(mesh, "s2").getStatus()).isEqualTo(MeshStatus.MESH_STATUS_BLOCKED);
                for (String other : List.of("s3", "s4")) {
                    assertThat(server(mesh, other).getInRotation())
                            .as(other + " in rotation")
                            .isTrue();
                }
            };
            Duration kept;
            Duration withheld;
            long s1Dropped;
            start = System.nanoTime();
            try (NetworkFault s1Cut = fault(
                    "two-site cut of s1 (w2/nl and w4/us) while s2 is BLOCKED",
                    dropIncoming(namespace(1), "ip saddr { " + address(2) + ", " + address(4) + " }" + port))) {
                kept = until(
                        start,
                        PATIENCE,
                        "s1 out of rotation and BLOCKED s2 kept in rotation",
                        mesh -> server(mesh, "s1").getStatus() == MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS
                                && server(mesh, "s2").getInRotation(),
                        s2StaysBlocked);
                s2 = server(mesh(), "s2");
                assertThat(s2.getReason())
                        .startsWith("checker cannot reach s2/main: w3 (site fr) streak ")
                        .endsWith("; kept: no other server of route eu is usable");
                RouteStatus eu = route("eu");
                assertThat(eu.getServersList()).containsExactly("s2");
                assertThat(eu.getPanic()).isFalse();
                awaitVerdict("s2/main", HealthState.HEALTH_STATE_DEGRADED, true);
                awaitVerdict("s1/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

                // s1 comes back: s2 is withheld again.
                start = System.nanoTime();
                s1Cut.close();
                s1Dropped = s1Cut.dropped();
            }
            withheld = until(
                    start,
                    PATIENCE,
                    "s1 back and s2 withheld again",
                    mesh -> server(mesh, "s1").getStatus() == MeshStatus.MESH_STATUS_OK
                            && server(mesh, "s1").getInRotation()
                            && !server(mesh, "s2").getInRotation(),
                    s2StaysBlocked);
            assertThat(route("eu").getServersList()).containsExactly("s1");
            awaitVerdict("s2/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            Duration healed = heal(checkerCut);
            record(
                    checkerCut,
                    "s2 BLOCKED, out of rotation, in " + bounded(blocked) + "; s1 cut off from two"
                            + " sites too: s2 kept in rotation in " + bounded(kept) + ", withheld again "
                            + bounded(withheld)
                            + " after s1's cut ended (it dropped " + s1Dropped + " packets)",
                    healed,
                    blocked,
                    kept,
                    withheld);
        }
    }

    @Test
    @Order(7)
    void fleetWhenEveryFaultHasEndedThenEverythingIsAsAtTheStart() throws InterruptedException {
        awaitHealed("after every fault");
        fleetWhenNothingIsCutThenEveryoneReachesEveryoneAndEveryRouteServesBoth();
        assertThat(witnesses)
                .allSatisfy(witness ->
                        assertThat(witness.alive()).as(witness.name()).isTrue());
    }
}
