package io.observatory.mesh.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.mesh.judge.MeshEvidence.SelfReport;
import io.observatory.mesh.judge.MeshEvidence.Streak;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The mesh verdict as a table of its rules and their edges, on deterministic time: four servers, each with its own
 * witness (w1 on s1 at site de, w2 on s2 at site nl, w3 on s3 at site fr, w4 on s4 at site de), routes {@code eu}
 * (s1, s2, s3) and {@code us} (s4), streak 3, quorum 2, unreliable share 0.5, no data after 30 s.
 */
class MeshJudgeTest {

    private static final MeshRules RULES = new MeshRules(3, 2, 0.5, Duration.ofSeconds(30));
    private static final long NOW = Duration.ofMinutes(10).toNanos();

    private final List<Server> servers = new ArrayList<>(List.of(
            new Server("s1", "eu", List.of("main")),
            new Server("s2", "eu", List.of("main")),
            new Server("s3", "eu", List.of("main", "alt")),
            new Server("s4", "us", List.of("main"))));
    private final List<Witness> witnesses = new ArrayList<>(List.of(
            new Witness("w1", "de", "s1", false),
            new Witness("w2", "nl", "s2", false),
            new Witness("w3", "fr", "s3", false),
            new Witness("w4", "de", "s4", false)));
    private final List<SelfReport> selfReports = new ArrayList<>();
    private final List<Streak> streaks = new ArrayList<>();

    /** Every witness reports its server healthy now and has probed every neighbour's entry points successfully. */
    private MeshJudgeTest allWell() {
        for (Witness witness : witnesses) {
            if (witness.server() != null) {
                selfReports.add(new SelfReport(witness.name(), NOW, null));
            }
            for (Server server : servers) {
                if (!server.name().equals(witness.server())) {
                    server.entryPoints()
                            .forEach(entry -> streaks.add(new Streak(witness.name(), server.name(), entry, 0, NOW)));
                }
            }
        }
        return this;
    }

    /** Sets the streak of {@code witness} against {@code server}'s {@code entry}. */
    private MeshJudgeTest streak(String witness, String server, String entry, int failures) {
        streaks.removeIf(s -> s.witness().equals(witness)
                && s.server().equals(server)
                && s.entryPoint().equals(entry));
        streaks.add(new Streak(witness, server, entry, failures, NOW));
        return this;
    }

    private MeshJudgeTest selfReport(String witness, long ageNanos, String failingCheck) {
        selfReports.removeIf(report -> report.witness().equals(witness));
        selfReports.add(new SelfReport(witness, NOW - ageNanos, failingCheck));
        return this;
    }

    private MeshJudgement judge() {
        return MeshJudge.judge(new MeshFleet(servers, witnesses), new MeshEvidence(selfReports, streaks), RULES, NOW);
    }

    private ServerVerdict server(String name) {
        return judge().servers().stream()
                .filter(verdict -> verdict.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private WitnessStanding witness(String name) {
        return judge().witnesses().stream()
                .filter(w -> w.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private RouteServing route(String name) {
        return judge().routes().stream()
                .filter(route -> route.route().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void judgeWhenEveryoneReachesEveryoneThenAllOkAndServed() {
        allWell();

        assertThat(judge().servers()).extracting(ServerVerdict::status).containsOnly(MeshStatus.OK);
        assertThat(judge().servers())
                .allMatch(verdict -> verdict.inRotation()
                        && verdict.pairCuts().isEmpty()
                        && verdict.reason().isEmpty());
        assertThat(route("eu")).isEqualTo(new RouteServing("eu", List.of("s1", "s2", "s3"), false));
        assertThat(witness("w1")).isEqualTo(new WitnessStanding("w1", "de", false, true, 0, 3));
    }

    @Test
    void judgeWhenSelfReportNamesAFailingCheckThenServerUnavailableNamingIt() {
        allWell().selfReport("w2", 0, "tcp :443");

        assertThat(server("s2"))
                .isEqualTo(new ServerVerdict(
                        "s2",
                        "eu",
                        MeshStatus.SERVER_UNAVAILABLE,
                        0,
                        "self-check tcp :443 fails (reported by w2)",
                        false,
                        Map.of()));
        assertThat(route("eu").servers()).containsExactly("s1", "s3");
    }

    @ParameterizedTest(name = "self-report {0} s old -> {1}")
    @CsvSource({"30, OK", "31, NO_DATA"})
    void judgeWhenSelfReportAgesPastNoDataAfterThenNoDataButStillInRotation(long ageSeconds, MeshStatus status) {
        allWell().selfReport("w3", Duration.ofSeconds(ageSeconds).toNanos(), null);

        assertThat(server("s3").status()).isEqualTo(status);
        assertThat(server("s3").inRotation()).isTrue();
    }

    @Test
    void judgeWhenStaleSelfReportNamedAFailingCheckThenNoDataNotUnavailable() {
        allWell().selfReport("w3", Duration.ofSeconds(31).toNanos(), "http :8080/health");

        assertThat(server("s3").status()).isEqualTo(MeshStatus.NO_DATA);
        assertThat(server("s3").reason()).isEqualTo("no self-report within 30s");
    }

    @Test
    void judgeWhenServerHasNoWitnessOnItThenNoData() {
        servers.add(new Server("s5", "us", List.of("main")));
        allWell();

        assertThat(server("s5").status()).isEqualTo(MeshStatus.NO_DATA);
        assertThat(route("us").servers()).containsExactly("s4", "s5");
    }

    @ParameterizedTest(name = "streak {0}: pair cut {1}")
    @CsvSource({"2, false", "3, true"})
    void judgeWhenOneWitnessFailsAnEntryPointThenPairCutFromStreakOnAndServerStaysInRotation(
            int failures, boolean cut) {
        allWell().streak("w3", "s1", "main", failures);

        ServerVerdict s1 = server("s1");
        assertThat(s1.status()).isEqualTo(MeshStatus.OK);
        assertThat(s1.inRotation()).isTrue();
        assertThat(s1.pairCuts())
                .isEqualTo(cut ? Map.of("main", "server s3 (witness w3) cannot reach s1/main (streak 3)") : Map.of());
        assertThat(route("eu").servers())
                .as("a marked server is ranked after unmarked ones")
                .containsExactlyElementsOf(cut ? List.of("s2", "s3", "s1") : List.of("s1", "s2", "s3"));
    }

    @Test
    void judgeWhenAPairFailsBothWaysThenBothEntryPointsMarkedAndBothRankLast() {
        allWell().streak("w1", "s2", "main", 3).streak("w2", "s1", "main", 3);

        assertThat(server("s1").pairCuts()).containsOnlyKeys("main");
        assertThat(server("s2").pairCuts())
                .containsEntry("main", "server s1 (witness w1) cannot reach s2/main (streak 3)");
        assertThat(route("eu").servers()).containsExactly("s3", "s1", "s2");
    }

    @Test
    void judgeWhenQuorumOfSitesCannotReachThenUnreachableListingTheWitnesses() {
        allWell().streak("w1", "s2", "main", 3).streak("w3", "s2", "main", 4);

        assertThat(server("s2"))
                .isEqualTo(new ServerVerdict(
                        "s2",
                        "eu",
                        MeshStatus.UNREACHABLE_FROM_SERVERS,
                        2,
                        "cannot reach s2/main: w1 (site de) streak 3, w3 (site fr) streak 4",
                        false,
                        Map.of()));
        assertThat(route("eu").servers()).containsExactly("s1", "s3");
    }

    @Test
    void judgeWhenTwoWitnessesOfOneSiteCannotReachThenTheyCountOnceAndOnlyMark() {
        allWell().streak("w1", "s2", "main", 3).streak("w4", "s2", "main", 3);

        assertThat(server("s2").status()).isEqualTo(MeshStatus.OK);
        assertThat(server("s2").pairCuts()).containsOnlyKeys("main");
    }

    @Test
    void judgeWhenWitnessVotesAgainstJustBelowTheShareThenItCounts() {
        servers.add(new Server("s5", "us", List.of("main")));
        witnesses.add(new Witness("w5", "pl", "s5", false));
        allWell().streak("w1", "s2", "main", 3);

        assertThat(witness("w1").share()).isEqualTo(0.25);
        assertThat(witness("w1").reliable()).isTrue();
        assertThat(server("s2").pairCuts()).isNotEmpty();
    }

    @Test
    void judgeWhenWitnessVotesAgainstHalfOfItsNeighboursThenUnreliableAndItsVotesSetAside() {
        servers.add(new Server("s5", "us", List.of("main")));
        witnesses.add(new Witness("w5", "pl", "s5", false));
        allWell().streak("w1", "s2", "main", 3).streak("w1", "s4", "main", 3).streak("w3", "s2", "main", 3);

        assertThat(witness("w1")).isEqualTo(new WitnessStanding("w1", "de", false, false, 0.5, 4));
        assertThat(server("s2").status())
                .as("w1 is set aside, so only w3 votes")
                .isEqualTo(MeshStatus.OK);
        assertThat(server("s2").pairCuts())
                .containsEntry("main", "server s3 (witness w3) cannot reach s2/main (streak 3)");
        assertThat(server("s4").pairCuts()).isEmpty();
    }

    @Test
    void judgeWhenWitnessLosesItsOutgoingPathThenItIsUnreliableAndRemovesNobody() {
        allWell()
                .streak("w4", "s1", "main", 3)
                .streak("w4", "s2", "main", 3)
                .streak("w4", "s3", "main", 3)
                .streak("w4", "s3", "alt", 3);

        assertThat(witness("w4").reliable()).isFalse();
        assertThat(witness("w4").share()).isEqualTo(1.0);
        assertThat(judge().servers())
                .allMatch(verdict ->
                        verdict.status() == MeshStatus.OK && verdict.pairCuts().isEmpty());
    }

    @Test
    void judgeWhenANeighbourSaysItIsUnavailableThenFailingToReachItDoesNotMakeTheWitnessUnreliable() {
        allWell()
                .selfReport("w2", 0, "pid-file /run/xray.pid")
                .streak("w1", "s2", "main", 3)
                .streak("w1", "s3", "main", 3);

        assertThat(witness("w1").neighbours()).isEqualTo(2);
        assertThat(witness("w1").share()).isEqualTo(0.5);
    }

    @Test
    void judgeWhenCheckerCannotReachThenBlockedWhileTheRouteHasAnotherServer() {
        witnesses.set(2, new Witness("w3", "fr", "s3", true));
        allWell().streak("w3", "s2", "main", 3);

        assertThat(server("s2"))
                .isEqualTo(new ServerVerdict(
                        "s2",
                        "eu",
                        MeshStatus.BLOCKED,
                        1,
                        "checker cannot reach s2/main: w3 (site fr) streak 3",
                        false,
                        Map.of()));
        assertThat(route("eu")).isEqualTo(new RouteServing("eu", List.of("s1", "s3"), false));
    }

    @Test
    void judgeWhenCheckerBlocksTheLastServerOfItsRouteThenKeptInRotation() {
        witnesses.set(2, new Witness("w3", "fr", "s3", true));
        allWell().streak("w3", "s4", "main", 3);

        assertThat(server("s4").status()).isEqualTo(MeshStatus.BLOCKED);
        assertThat(server("s4").inRotation()).isTrue();
        assertThat(server("s4").reason()).endsWith("; kept: no other server of route us is usable");
        assertThat(route("us")).isEqualTo(new RouteServing("us", List.of("s4"), false));
    }

    @Test
    void judgeWhenRegularWitnessesCannotReachACheckersServerThenTheirVotesCountForNothing() {
        witnesses.set(2, new Witness("w3", "fr", "s3", true));
        allWell().streak("w1", "s3", "main", 3).streak("w2", "s3", "main", 3);

        assertThat(server("s3").status()).isEqualTo(MeshStatus.OK);
        assertThat(server("s3").pairCuts()).isEmpty();
    }

    @Test
    void judgeWhenCheckerCannotReachAnotherCheckersServerThenItCounts() {
        witnesses.set(2, new Witness("w3", "fr", "s3", true));
        witnesses.set(0, new Witness("w1", "de", "s1", true));
        allWell().streak("w1", "s3", "main", 3);

        assertThat(server("s3").status()).isEqualTo(MeshStatus.BLOCKED);
    }

    @Test
    void judgeWhenNoServerOfARouteIsInRotationThenTheBestRankedAreServedInPanic() {
        servers.add(new Server("s5", "us", List.of("main")));
        servers.add(new Server("s6", "us", List.of("main")));
        allWell()
                .selfReport("w1", 0, "tcp :443")
                .selfReport("w2", 0, "tcp :443")
                .streak("w2", "s3", "main", 3)
                .streak("w4", "s3", "main", 3);

        assertThat(server("s3").status()).isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);
        assertThat(route("eu"))
                .as("unreachable ranks above unavailable")
                .isEqualTo(new RouteServing("eu", List.of("s3"), true));
    }

    @Test
    void judgeWhenOneSuccessAfterAVoteThenTheStreakResetsAndTheServerHeals() {
        allWell().streak("w1", "s2", "main", 3).streak("w3", "s2", "main", 3);
        assertThat(server("s2").status()).isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);

        streak("w3", "s2", "main", 0);

        assertThat(server("s2").status()).isEqualTo(MeshStatus.OK);
        assertThat(server("s2").pairCuts()).containsOnlyKeys("main");
    }

    @Test
    void judgeWhenTheVotersFellSilentForNoDataAfterThenTheirVotesAreGone() {
        allWell().streak("w1", "s4", "main", 3).streak("w2", "s4", "main", 3);
        streaks.replaceAll(streak -> streak.witness().equals("w2")
                ? new Streak(
                        streak.witness(),
                        streak.server(),
                        streak.entryPoint(),
                        streak.failures(),
                        NOW - RULES.noDataAfter().toNanos() - 1)
                : streak);

        assertThat(server("s4").status()).isEqualTo(MeshStatus.OK);
        assertThat(server("s4").pairCuts()).containsOnlyKeys("main");
        assertThat(witness("w2").neighbours()).isZero();
    }

    @Test
    void judgeWhenAWitnessReportsAboutItsOwnServerThenIgnored() {
        allWell();
        streaks.add(new Streak("w1", "s1", "main", 9, NOW));

        assertThat(server("s1").pairCuts()).isEmpty();
        assertThat(witness("w1").neighbours()).isEqualTo(3);
    }

    @Test
    void judgeWhenExternalWitnessVotesThenReasonNamesTheWitness() {
        witnesses.add(new Witness("probe-1", "us-east", null, false));
        allWell().streak("probe-1", "s4", "main", 3);

        assertThat(server("s4").pairCuts()).containsEntry("main", "witness probe-1 cannot reach s4/main (streak 3)");
    }

    @Test
    void meshFleetWhenWitnessNamesAnUnknownServerThenRejected() {
        assertThatThrownBy(() -> new MeshFleet(servers, List.of(new Witness("w9", "de", "s9", false))))
                .hasMessage("witness w9: server s9 (expected: one of the fleet's servers [s1, s2, s3, s4])");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            0, 2, 0.5, 30  | streak: 0 (expected: >= 1)
            3, 0, 0.5, 30  | quorum: 0 (expected: >= 1)
            3, 2, 0,   30  | unreliable-share: 0.0 (expected: > 0 and <= 1)
            3, 2, 1.5, 30  | unreliable-share: 1.5 (expected: > 0 and <= 1)
            3, 2, 0.5, 0   | no-data-after: PT0S (expected: > 0)
            """)
    void meshRulesWhenOutOfRangeThenRejectedNamingTheSetting(String values, String message) {
        String[] v = values.split(",\\s*");
        assertThatThrownBy(() -> new MeshRules(
                        Integer.parseInt(v[0]),
                        Integer.parseInt(v[1]),
                        Double.parseDouble(v[2]),
                        Duration.ofSeconds(Long.parseLong(v[3]))))
                .hasMessage(message);
    }
}
