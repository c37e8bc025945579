package io.observatory.mesh.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.mesh.hub.MeshLedger.Outcome;
import io.observatory.mesh.hub.MeshLedger.Report;
import io.observatory.mesh.judge.MeshEvidence;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import io.observatory.mesh.judge.MeshJudge;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.judge.MeshStatus;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The hub's report ledger: idempotent, never backwards, strangers refused. */
class MeshLedgerTest {

    private static final MeshFleet FLEET = new MeshFleet(
            List.of(new Server("s1", "eu", List.of("main")), new Server("s2", "eu", List.of("main", "alt"))),
            List.of(new Witness("w1", "de", "s1", false), new Witness("w2", "nl", "s2", false)));

    private static final Duration STALE_AFTER = Duration.ofSeconds(30);

    private final MeshLedger ledger = new MeshLedger(FLEET, STALE_AFTER);

    private static PathStreak streak(String server, String entryPoint, int failures) {
        return new PathStreak(
                server,
                entryPoint,
                failures,
                failures == 0 ? 1 : 0,
                failures == 0
                        ? new LastProbe(true, null, "", 1_000_000)
                        : new LastProbe(false, ProbeError.Kind.CONNECTION_REFUSED, "connection refused", 0));
    }

    private static Report report(long processStart, long sequence, int failuresAgainstS2) {
        return new Report(processStart, sequence, null, List.of(streak("s2", "main", failuresAgainstS2)));
    }

    private int failuresOfW1AgainstS2() {
        return ledger.evidence().streaks().stream()
                .filter(streak -> streak.witness().equals("w1"))
                .mapToInt(MeshEvidence.Streak::failures)
                .findFirst()
                .orElse(-1);
    }

    @Test
    void recordWhenFirstReportThenItIsTheWitnessesStateWithItsReceiveTime() {
        assertThat(ledger.record("w1", new Report(100, 1, "tcp :443", List.of(streak("s2", "main", 2))), 7))
                .isEqualTo(Outcome.ACCEPTED);

        assertThat(ledger.evidence())
                .isEqualTo(new MeshEvidence(
                        List.of(new MeshEvidence.SelfReport("w1", 7, "tcp :443")),
                        List.of(new MeshEvidence.Streak("w1", "s2", "main", 2, 0, 7))));
    }

    @Test
    void recordWhenAnotherProcessReportsAfterTheHeldReportWentStaleThenTakenWhateverItsStart() {
        ledger.record("w1", report(4_000_000_000_000L, 7, 3), 1);
        long later = 1 + STALE_AFTER.toNanos();

        assertThat(ledger.record("w1", report(100, 1, 0), later)).isEqualTo(Outcome.IGNORED_OLD);
        assertThat(ledger.record("w1", report(100, 2, 0), later + 1)).isEqualTo(Outcome.ACCEPTED);
        assertThat(failuresOfW1AgainstS2()).isZero();
        assertThat(ledger.record("w1", report(4_000_000_000_000L, 8, 3), later + 2))
                .isEqualTo(Outcome.ACCEPTED);
    }

    @ParameterizedTest(name = "after (100, 5): report ({0}, {1}) -> {2}")
    @CsvSource({
        "100, 6, ACCEPTED", // the next one
        "100, 5, IGNORED_OLD", // duplicated
        "100, 4, IGNORED_OLD", // reordered or late
        "200, 1, ACCEPTED", // the witness restarted: its sequence begins again
        "50,  9, IGNORED_OLD", // late, from before an earlier restart
    })
    void recordWhenAReportFollowsAnotherThenOnlyANewerOneMovesTheState(
            long processStart, long sequence, Outcome outcome) {
        ledger.record("w1", report(100, 5, 3), 1);

        assertThat(ledger.record("w1", report(processStart, sequence, 0), 2)).isEqualTo(outcome);
        assertThat(failuresOfW1AgainstS2()).isEqualTo(outcome == Outcome.ACCEPTED ? 0 : 3);
    }

    @Test
    void recordWhenWitnessIsNotInTheFleetThenRefusedAndNotStored() {
        assertThat(ledger.record("w9", report(100, 1, 3), 1)).isEqualTo(Outcome.REFUSED_UNKNOWN_WITNESS);

        assertThat(ledger.evidence().selfReports()).isEmpty();
    }

    @Test
    void evidenceWhenAStreakNamesNoEntryPointOfTheFleetThenLeftOut() {
        ledger.record(
                "w1",
                new Report(
                        100,
                        1,
                        null,
                        List.of(streak("s2", "main", 1), streak("s2", "nope", 4), streak("s7", "main", 4))),
                1);

        assertThat(ledger.evidence().streaks())
                .extracting(MeshEvidence.Streak::entryPoint)
                .containsExactly("main");
    }

    @Test
    void evidenceWhenJudgedThenAReportedFailingCheckAndAStreakDecideTheVerdicts() {
        ledger.record("w1", report(100, 1, 3), Duration.ofSeconds(1).toNanos());
        ledger.record(
                "w2",
                new Report(100, 1, "pid-file /run/xray.pid", List.of()),
                Duration.ofSeconds(1).toNanos());

        MeshJudgement judgement = MeshJudge.judge(
                FLEET,
                ledger.evidence(),
                new MeshRules(3, 2, 0, 0.5, Duration.ofSeconds(30)),
                Duration.ofSeconds(2).toNanos());

        assertThat(judgement.servers())
                .extracting(MeshJudgement.ServerVerdict::status)
                .containsExactly(MeshStatus.OK, MeshStatus.SERVER_UNAVAILABLE);
    }

    @Test
    void fleetChangedWhenAWitnessLeavesThenItsReportIsForgotten() {
        ledger.record("w1", report(100, 1, 3), 1);
        ledger.record("w2", new Report(100, 1, null, List.of()), 1);

        ledger.fleetChanged(
                new MeshFleet(FLEET.servers(), List.of(FLEET.witnesses().get(1))), STALE_AFTER);

        assertThat(ledger.evidence().selfReports())
                .extracting(MeshEvidence.SelfReport::witness)
                .containsExactly("w2");
        assertThat(ledger.record("w1", report(100, 2, 3), 2)).isEqualTo(Outcome.REFUSED_UNKNOWN_WITNESS);
    }

    @Test
    void recordWhenAWitnessRestartsBeforeProbingAgainThenItsFailingStreakStandsAsItWas() {
        ledger.record("w1", report(100, 5, 3), 1);

        assertThat(ledger.record("w1", new Report(200, 1, null, List.of()), 2)).isEqualTo(Outcome.ACCEPTED);

        assertThat(ledger.evidence().streaks()).containsExactly(new MeshEvidence.Streak("w1", "s2", "main", 3, 0, 1));
    }

    @Test
    void recordWhenARestartedWitnessFailsAgainThenItsStreakGoesOnFromTheOldOneUntilASuccess() {
        ledger.record("w1", report(100, 5, 3), 1);

        ledger.record("w1", report(200, 1, 1), 2);
        assertThat(failuresOfW1AgainstS2()).isEqualTo(4);
        ledger.record("w1", report(200, 2, 2), 3);
        assertThat(failuresOfW1AgainstS2()).isEqualTo(5);
        ledger.record("w1", report(200, 3, 0), 4);
        assertThat(failuresOfW1AgainstS2()).as("a success resets it").isZero();
        ledger.record("w1", report(200, 4, 1), 5);
        assertThat(failuresOfW1AgainstS2())
                .as("the old streak is not added again")
                .isEqualTo(1);
    }

    @Test
    void recordWhenCarriedAndNewStreaksAddUpBeyondTheLargestCountThenTheLargestCount() {
        ledger.record("w1", report(100, 5, Integer.MAX_VALUE), 1);

        assertThat(ledger.record("w1", report(200, 1, Integer.MAX_VALUE), 2)).isEqualTo(Outcome.ACCEPTED);

        assertThat(failuresOfW1AgainstS2()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void recordWhenARestartedWitnessesStreakShrinksThenASuccessCameBetweenReportsAndTheOldStreakEnds() {
        ledger.record("w1", report(100, 5, 3), 1);
        ledger.record("w1", report(200, 1, 2), 2);

        ledger.record("w1", report(200, 2, 1), 3);

        assertThat(failuresOfW1AgainstS2()).isEqualTo(1);
    }

    @Test
    void recordWhenARestartedWitnessNeverProbesTheEntryPointAgainThenTheCarriedStreakEndsWithTheOldReport() {
        ledger.record("w1", report(100, 5, 3), 1);
        ledger.record("w1", new Report(200, 1, null, List.of()), 2);

        ledger.record("w1", new Report(200, 2, null, List.of()), 2 + STALE_AFTER.toNanos());

        assertThat(failuresOfW1AgainstS2()).as("no longer carried").isEqualTo(-1);
    }

    @Test
    void recordWhenAWitnessRestartsAfterItsReportWentStaleThenNothingIsCarried() {
        ledger.record("w1", report(100, 5, 3), 1);

        ledger.record("w1", report(200, 1, 1), 2 + STALE_AFTER.toNanos());

        assertThat(failuresOfW1AgainstS2()).isEqualTo(1);
    }

    @Test
    void evidenceWhenAWitnessRestartsDuringAnOutageThenTheServerStaysUnreachableFromServers() {
        MeshFleet fleet = new MeshFleet(
                List.of(
                        new Server("s1", "eu", List.of("main")),
                        new Server("s2", "eu", List.of("main")),
                        new Server("s3", "us", List.of("main"))),
                List.of(
                        new Witness("w1", "de", "s1", false),
                        new Witness("w2", "nl", "s2", false),
                        new Witness("w3", "us", "s3", false)));
        MeshRules rules = new MeshRules(3, 2, 0, 0.75, STALE_AFTER);
        MeshLedger restarting = new MeshLedger(fleet, STALE_AFTER);
        long second = Duration.ofSeconds(1).toNanos();
        restarting.record(
                "w1", new Report(100, 9, null, List.of(streak("s2", "main", 4), streak("s3", "main", 0))), second);
        restarting.record(
                "w3", new Report(100, 9, null, List.of(streak("s2", "main", 4), streak("s1", "main", 0))), second);
        restarting.record("w2", new Report(100, 9, null, List.of()), second);
        assertThat(MeshJudge.judge(fleet, restarting.evidence(), rules, 2 * second)
                        .servers()
                        .get(1)
                        .status())
                .isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);

        restarting.record("w1", new Report(300, 1, null, List.of()), 3 * second);
        restarting.record("w2", new Report(100, 10, null, List.of()), 3 * second);

        MeshJudgement afterRestart = MeshJudge.judge(fleet, restarting.evidence(), rules, 4 * second);
        assertThat(afterRestart.servers().get(1).status())
                .as("w1's restart is no evidence that s2 healed")
                .isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);
        assertThat(afterRestart.witnesses())
                .extracting(MeshJudgement.WitnessStanding::reliable)
                .as("w1 still probes s3 as far as the hub knows")
                .containsOnly(true);
    }
}
