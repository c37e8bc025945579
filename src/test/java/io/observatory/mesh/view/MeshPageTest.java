package io.observatory.mesh.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshEvidence;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.judge.MeshStatus;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MeshPageTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:10Z");
    private static final MeshRules RULES = new MeshRules(3, 2, 0, 0.5, Duration.ofSeconds(3));

    private static MeshView view() {
        MeshFleet fleet = new MeshFleet(
                List.of(
                        new MeshFleet.Server("s1", "eu", List.of("main")),
                        new MeshFleet.Server("s2", "eu", List.of("main"))),
                List.of(new MeshFleet.Witness("w1", "de", "s1", true), new MeshFleet.Witness("w2", "nl", "s2", false)));
        MeshJudgement judgement = new MeshJudgement(
                List.of(
                        new ServerVerdict("s1", "eu", MeshStatus.OK, 0, "", true, Map.of()),
                        new ServerVerdict(
                                "s2",
                                "eu",
                                MeshStatus.BLOCKED,
                                1,
                                "checker cannot reach s2/main: w1 (site" + " de) streak 3",
                                false,
                                Map.of())),
                List.of(
                        new WitnessStanding("w1", "de", true, true, 0, 1, ""),
                        new WitnessStanding(
                                "w2", "nl", false, false, 1.0, 1, "alone in failing 1 of the 1 neighbours it probes")),
                List.of(new RouteServing("eu", List.of("s1"), false)),
                Set.of(new MeshEvidence.Path("w1", "s2", "main")));
        return new MeshView(
                fleet,
                RULES,
                judgement,
                Map.of("w1", NOW.minusSeconds(1), "w2", NOW.minusSeconds(5)),
                Map.of(
                        "w1",
                        List.of(new PathStreak(
                                "s2",
                                "main",
                                3,
                                0,
                                new LastProbe(
                                        false,
                                        ProbeError.Kind.CONNECTION_REFUSED,
                                        "connection refused by 127.0.0.1:18192",
                                        0))),
                        "w2",
                        List.of(new PathStreak("s1", "main", 0, 4, new LastProbe(true, null, "", 2_500_000)))),
                Map.of(),
                Map.of());
    }

    @Test
    void ofWhenAHubHasAFleetThenItsServersWitnessesRoutesCaptionsStaleWitnessesAndCells() {
        MeshPage page = MeshPage.of(view(), NOW);

        assertThat(page.now()).isEqualTo(NOW.toEpochMilli());
        assertThat(page.streak()).isEqualTo(3);
        assertThat(page.view().servers()).extracting(MeshJson.Server::status).containsExactly("OK", "BLOCKED");
        assertThat(page.captions()).containsExactly(Map.entry("s1", "ok"), Map.entry("s2", "blocked by a checker"));
        assertThat(page.stale()).as("w2 reported 5 s ago, no-data-after is 3 s").containsExactly("w2");
        assertThat(page.cells())
                .containsExactly(
                        new MeshPage.Cell(
                                "w1",
                                "s2/main",
                                3,
                                0,
                                true,
                                false,
                                "connection_refused",
                                "connection refused by 127.0.0.1:18192",
                                null,
                                NOW.minusSeconds(1).toEpochMilli()),
                        new MeshPage.Cell(
                                "w2",
                                "s1/main",
                                0,
                                4,
                                false,
                                true,
                                null,
                                null,
                                2_500L,
                                NOW.minusSeconds(5).toEpochMilli()));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "OK                       | 0 | true  | none     | ok",
                "OK                       | 0 | true  | ranked   | pair cut — unreachable from some of your servers",
                "OK                       | 0 | true  | unranked | ok (marked by an unreliable witness)",
                "SERVER_UNAVAILABLE       | 0 | false | none     | server unavailable",
                "UNREACHABLE_FROM_SERVERS | 3 | false | none     | unreachable from your servers (3 of them)",
                "BLOCKED                  | 1 | false | none     | blocked by a checker",
                "BLOCKED                  | 1 | true  | none     | blocked by a checker — kept: its route has no other"
                        + " server",
                "NO_DATA                  | 0 | true  | none     | no data — agent not responding"
            })
    void captionWhenAServerHasAStatusThenTheFleetMonitorsWords(
            String status, int voters, boolean inRotation, String mark, String caption) {
        boolean pairCut = !mark.equals("none");
        MeshJson.Server server = new MeshJson.Server(
                "s1",
                "eu",
                status,
                voters,
                "",
                inRotation,
                List.of(new MeshJson.EntryPoint(
                        "main",
                        "s1/main",
                        pairCut ? List.of("PAIR_CUT") : List.of(),
                        pairCut ? "pair cut: server s2 (witness w2) cannot reach s1/main (streak 3)" : null,
                        pairCut ? mark.equals("ranked") : null)),
                null);

        assertThat(MeshPage.caption(server)).isEqualTo(caption);
    }

    @Test
    void ofWhenTheMatrixHasMoreCellsThanAPageDrawsThenNoCellsAndTheirCount() {
        MeshView small = view();
        List<PathStreak> row = new ArrayList<>();
        for (int server = 0; server < 100; server++) {
            row.add(new PathStreak("s" + server, "main", 0, 5, new LastProbe(true, null, "", 1_000_000)));
        }
        Map<String, List<PathStreak>> streaks = new HashMap<>();
        Map<String, Instant> lastReports = new HashMap<>();
        for (int witness = 0; witness <= 100; witness++) {
            streaks.put("w" + witness, row);
            lastReports.put("w" + witness, NOW);
        }
        MeshView large =
                new MeshView(small.fleet(), small.rules(), small.judgement(), lastReports, streaks, Map.of(), Map.of());

        MeshPage page = MeshPage.of(large, NOW);

        assertThat(page.matrixCells()).isEqualTo(10_100);
        assertThat(page.cells())
                .as("more than %d cells", MeshPage.MATRIX_MAX_CELLS)
                .isEmpty();
        assertThat(MeshPage.of(small, NOW).matrixCells()).isEqualTo(2);
    }

    @Test
    void ofWhenNoHubThenEmptyLists() {
        MeshPage page = MeshPage.of(MeshView.EMPTY, NOW);

        assertThat(page.view().servers()).isEmpty();
        assertThat(page.cells()).isEmpty();
        assertThat(page.captions()).isEmpty();
    }
}
