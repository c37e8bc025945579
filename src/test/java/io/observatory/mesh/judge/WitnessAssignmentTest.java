package io.observatory.mesh.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.mesh.judge.MeshEvidence.SelfReport;
import io.observatory.mesh.judge.MeshEvidence.Streak;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Which servers each witness probes: the full mesh, and k per server by rendezvous hashing with sites first. */
class WitnessAssignmentTest {

    /** {@code servers} servers, each with its own witness; witnesses spread over {@code sites} sites in turn. */
    private static MeshFleet fleet(int servers, int sites) {
        List<Server> fleetServers = new ArrayList<>();
        List<Witness> witnesses = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            fleetServers.add(new Server("s" + i, "r" + (i % 3), List.of("main")));
            witnesses.add(new Witness("w" + i, "site" + (i % sites), "s" + i, false));
        }
        return new MeshFleet(fleetServers, witnesses);
    }

    private static MeshFleet with(MeshFleet fleet, Witness witness) {
        List<Witness> witnesses = new ArrayList<>(fleet.witnesses());
        witnesses.add(witness);
        return new MeshFleet(fleet.servers(), witnesses);
    }

    private static Map<String, Set<String>> byServer(MeshFleet fleet, WitnessAssignment assignment) {
        return fleet.servers().stream()
                .collect(Collectors.toMap(Server::name, server -> Set.copyOf(assignment.witnessesOf(server.name()))));
    }

    @Test
    void fullWhenAskedThenEveryWitnessProbesEveryServerButItsOwn() {
        MeshFleet fleet = fleet(4, 2);

        WitnessAssignment full = WitnessAssignment.full(fleet);

        assertThat(full.full()).isTrue();
        assertThat(full.serversOf("w1")).containsExactly("s0", "s2", "s3");
        assertThat(full.witnessesOf("s1")).containsExactly("w0", "w2", "w3");
        assertThat(full.serversOf("nobody")).isEmpty();
    }

    @Test
    void perServerWhenTheFleetHasEnoughSitesThenEachServerHasKWitnessesOfKSitesNoneOnItself() {
        MeshFleet fleet = fleet(200, 10);

        WitnessAssignment assignment = WitnessAssignment.perServer(fleet, 5);

        Map<String, String> siteOf = fleet.witnesses().stream().collect(Collectors.toMap(Witness::name, Witness::site));
        for (Server server : fleet.servers()) {
            List<String> witnesses = assignment.witnessesOf(server.name());
            assertThat(witnesses)
                    .as(server.name())
                    .hasSize(5)
                    .doesNotContain("w" + server.name().substring(1));
            assertThat(witnesses.stream().map(siteOf::get).distinct())
                    .as("the sites of %s's witnesses", server.name())
                    .hasSize(5);
        }
        assertThat(assignment.serversOf("w7"))
                .as("a witness's servers are those whose witnesses it is")
                .allSatisfy(server -> assertThat(assignment.witnessesOf(server)).contains("w7"));
    }

    @Test
    void perServerWhenFewerSitesThanKThenEverySiteFirstAndTheRestByWeight() {
        MeshFleet fleet = fleet(30, 2);

        WitnessAssignment assignment = WitnessAssignment.perServer(fleet, 5);

        for (Server server : fleet.servers()) {
            List<String> witnesses = assignment.witnessesOf(server.name());
            assertThat(witnesses).hasSize(5);
            assertThat(witnesses.stream()
                            .map(name -> Integer.parseInt(name.substring(1)) % 2)
                            .distinct())
                    .as("both sites of %s's witnesses", server.name())
                    .hasSize(2);
        }
    }

    @Test
    void perServerWhenAWitnessJoinsThenOnlyTheServersItWinsChangeEachByOneWitness() {
        MeshFleet before = fleet(300, 12);
        MeshFleet after = with(before, new Witness("w-new", "site3", null, false));

        Map<String, Set<String>> was = byServer(before, WitnessAssignment.perServer(before, 5));
        Map<String, Set<String>> now = byServer(after, WitnessAssignment.perServer(after, 5));

        int changed = 0;
        for (String server : was.keySet()) {
            if (was.get(server).equals(now.get(server))) {
                continue;
            }
            changed++;
            Set<String> gone = new HashSet<>(was.get(server));
            gone.removeAll(now.get(server));
            assertThat(now.get(server)).as(server).contains("w-new");
            assertThat(gone).as("%s lost one witness to the new one", server).hasSize(1);
        }
        assertThat(changed)
                .as("about k / witnesses of the servers: 5 of 301 of 300")
                .isBetween(1, 15);
    }

    @Test
    void perServerWhenAWitnessLeavesThenOnlyTheServersItProbedChange() {
        MeshFleet before = fleet(300, 12);
        List<Witness> fewer = new ArrayList<>(before.witnesses());
        fewer.removeIf(witness -> witness.name().equals("w42"));
        MeshFleet after = new MeshFleet(before.servers(), fewer);

        WitnessAssignment was = WitnessAssignment.perServer(before, 5);
        WitnessAssignment now = WitnessAssignment.perServer(after, 5);

        for (Server server : before.servers()) {
            if (!was.witnessesOf(server.name()).contains("w42")) {
                assertThat(now.witnessesOf(server.name())).as(server.name()).isEqualTo(was.witnessesOf(server.name()));
            }
        }
    }

    @Test
    void perServerWhenThereAreCheckersThenEachServerHasThemBesidesItsK() {
        MeshFleet fleet =
                with(with(fleet(20, 4), new Witness("c1", "lab", null, true)), new Witness("c2", "lab", "s3", true));

        WitnessAssignment assignment = WitnessAssignment.perServer(fleet, 2);

        assertThat(assignment.witnessesOf("s0")).hasSize(4).contains("c1", "c2");
        assertThat(assignment.witnessesOf("s3"))
                .as("c2 runs on s3")
                .hasSize(3)
                .contains("c1")
                .doesNotContain("c2");
    }

    @Test
    void perServerWhenFewerWitnessesThanKThenEveryWitnessNotOnTheServer() {
        MeshFleet fleet = fleet(3, 3);

        WitnessAssignment assignment = WitnessAssignment.perServer(fleet, 5);

        assertThat(assignment.witnessesOf("s0")).containsExactly("w1", "w2");
        assertThatThrownBy(() -> WitnessAssignment.perServer(fleet, 0))
                .hasMessage("witnesses per server: 0 (expected: >= 1)");
    }

    @Test
    void perServerWhenAThousandServersThenEachWitnessProbesAFewAndNoneMany() {
        MeshFleet fleet = fleet(1_000, 20);

        WitnessAssignment assignment = WitnessAssignment.perServer(fleet, 5);

        int[] loads = fleet.witnesses().stream()
                .mapToInt(witness -> assignment.serversOf(witness.name()).size())
                .toArray();
        assertThat(Arrays.stream(loads).sum()).as("5 probes per server").isEqualTo(5_000);
        assertThat(Arrays.stream(loads).max().orElseThrow())
                .as("the busiest witness of 1,000, 5 servers on average")
                .isLessThanOrEqualTo(20);
    }

    @Test
    void judgeWhenEachWitnessReportsOnlyItsAssignmentThenQuorumAndShareCountOverItsNeighbours() {
        MeshFleet fleet = fleet(12, 6);
        WitnessAssignment assignment = WitnessAssignment.perServer(fleet, 3);
        long now = Duration.ofMinutes(1).toNanos();
        List<SelfReport> selfReports = new ArrayList<>();
        List<Streak> streaks = new ArrayList<>();
        for (Witness witness : fleet.witnesses()) {
            selfReports.add(new SelfReport(witness.name(), now, null));
            for (String server : assignment.serversOf(witness.name())) {
                boolean down = server.equals("s5");
                streaks.add(new Streak(witness.name(), server, "main", down ? 3 : 0, down ? 0 : 5, now));
            }
        }

        MeshJudgement judgement =
                MeshJudge.judge(fleet, new MeshEvidence(selfReports, streaks), MeshRules.DEFAULTS, now);

        assertThat(judgement.servers())
                .filteredOn(verdict -> verdict.name().equals("s5"))
                .singleElement()
                .satisfies(verdict -> {
                    assertThat(verdict.status()).isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);
                    assertThat(verdict.voters()).as("its 3 witnesses").isEqualTo(3);
                });
        assertThat(judgement.servers())
                .filteredOn(verdict -> !verdict.name().equals("s5"))
                .allSatisfy(verdict -> assertThat(verdict.status()).isEqualTo(MeshStatus.OK));
        String voter = assignment.witnessesOf("s5").get(0);
        assertThat(judgement.witnesses())
                .filteredOn(standing -> standing.name().equals(voter))
                .singleElement()
                .satisfies(standing -> {
                    assertThat(standing.neighbours())
                            .as("the servers it is assigned")
                            .isEqualTo(assignment.serversOf(voter).size());
                    assertThat(standing.reliable()).isTrue();
                });
    }
}
