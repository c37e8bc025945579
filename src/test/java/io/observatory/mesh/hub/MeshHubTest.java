package io.observatory.mesh.hub;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.ObservatoryConfig;
import io.observatory.health.HealthState;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshLedger.Outcome;
import io.observatory.mesh.hub.MeshLedger.Report;
import io.observatory.mesh.judge.MeshStatus;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hub on the writer, with fake time: reports become verdicts and entry-point marks that the observation serves,
 * NO_DATA comes with silence alone, and everything heals from the latest data.
 */
class MeshHubTest {

    private static final String FLEET = """
            observatory:
              mesh:
                hub:
                  streak: 3
                  quorum: 2
                  report-interval: 1s
                  servers:
                    - { name: s1, route: de, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s2, route: de, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s3, route: nl, entry-points: [ { name: main, protocol: direct } ] }
                    - { name: s4, route: nl, entry-points: [ { name: main, protocol: direct } ] }
                  witnesses:
                    - { name: w1, site: de, server: s1, certificate-subject: w1 }
                    - { name: w2, site: nl, server: s2, certificate-subject: w2 }
                    - { name: w3, site: fr, server: s3, certificate-subject: w3 }
                    - { name: w4, site: us, server: s4, certificate-subject: w4 }
            """;

    private final FakeScheduler writer = new FakeScheduler();
    private final ObservatoryConfig config = Configs.yaml(FLEET);
    private final ObservationUpdater updater = new ObservationUpdater(config, writer, writer.clock());
    private final MeshHub hub = new MeshHub(config.section(MeshSettings.SECTION), writer, writer.clock(), updater);
    // Every view the hub published, as the snapshot's mesh part.
    private final List<MeshView> marks = new ArrayList<>();

    {
        updater.store().watchPart(MeshView.PART, marks::add);
    }

    private final Map<String, Long> sequences = new java.util.HashMap<>();

    /** A path with {@code failures} in a row, or, for 0, healed long ago. */
    private static PathStreak path(String server, int failures) {
        return path(server, failures, failures == 0 ? 10 : 0);
    }

    private static PathStreak path(String server, int failures, int successes) {
        return new PathStreak(
                server,
                "main",
                failures,
                successes,
                failures == 0
                        ? new LastProbe(true, null, "", 12_000_000)
                        : new LastProbe(false, ProbeError.Kind.CONNECT_TIMEOUT, "connect timed out", 0));
    }

    private Outcome report(String witness, String failingCheck, PathStreak... paths) {
        long sequence = sequences.merge(witness, 1L, Long::sum);
        Outcome[] outcome = new Outcome[1];
        hub.report(witness, new Report(100, sequence, failingCheck, List.of(paths)), result -> outcome[0] = result);
        writer.runDue();
        return outcome[0];
    }

    private OutboundHealth served(String tag) {
        return updater.store().current().get(tag).orElseThrow();
    }

    private MeshStatus status(String server) {
        return hub.view().judgement().servers().stream()
                .filter(v -> v.name().equals(server))
                .findFirst()
                .orElseThrow()
                .status();
    }

    @Test
    void startWhenNoReportYetThenEveryServerNoDataAndStillServed() {
        hub.start();
        writer.runDue();

        assertThat(status("s1")).isEqualTo(MeshStatus.NO_DATA);
        assertThat(served("s1/main").verdict()).isEqualTo(HealthState.UNKNOWN);
        assertThat(served("s1/main").alive()).isTrue();
        assertThat(served("s1/main").probed()).isTrue();
    }

    @Test
    void reportWhenTwoWitnessesCannotReachAServerThenUnhealthyThenPairCutThenHealthyAsEachSucceedsAStreak() {
        hub.start();
        report("w1", null, path("s2", 0), path("s3", 3), path("s4", 0));
        report("w2", null, path("s1", 0), path("s3", 3), path("s4", 0));
        report("w3", null, path("s1", 0), path("s2", 0), path("s4", 0));

        assertThat(status("s3")).isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);
        assertThat(served("s3/main").verdict()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(served("s3/main").alive()).isFalse();
        assertThat(served("s3/main").lastChangeReason())
                .isEqualTo(
                        "mesh degraded -> unhealthy:"
                                + " unreachable_from_servers(2): cannot reach s3/main: w1 (site de) streak 3, w2 (site nl) streak 3");
        assertThat(served("s1/main").verdict()).isEqualTo(HealthState.HEALTHY);
        writer.advance(MeshMarks.MEASURE_INTERVAL);
        assertThat(served("s1/main").delayMillis())
                .as("the median of the witnesses' RTTs, measured again within a second")
                .isEqualTo(12);

        report("w1", null, path("s2", 0), path("s3", 0, 2), path("s4", 0));

        assertThat(status("s3"))
                .as("two successes are short of the streak that ends a vote")
                .isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);

        report("w1", null, path("s2", 0), path("s3", 0, 3), path("s4", 0));

        assertThat(status("s3")).isEqualTo(MeshStatus.OK);
        assertThat(served("s3/main").verdict()).isEqualTo(HealthState.DEGRADED);

        report("w2", null, path("s1", 0), path("s3", 0, 3), path("s4", 0));

        assertThat(served("s3/main").verdict()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void reportWhenOneSiteCannotReachThenPairCutDegradedButAlive() {
        hub.start();
        report("w1", null, path("s2", 3), path("s3", 0), path("s4", 0));
        report("w2", null, path("s1", 0), path("s3", 0, 3), path("s4", 0));
        report("w3", null, path("s1", 0), path("s2", 0), path("s4", 0));

        assertThat(status("s2")).isEqualTo(MeshStatus.OK);
        assertThat(served("s2/main").verdict()).isEqualTo(HealthState.DEGRADED);
        assertThat(served("s2/main").alive()).isTrue();
        assertThat(served("s2/main").source("mesh").orElseThrow().detail())
                .isEqualTo("ok; pair cut: server s1 (witness w1) cannot reach s2/main (streak 3)");
    }

    @Test
    void reportWhenDuplicatedOrOlderThenIgnoredAndNothingMovesBack() {
        hub.start();
        hub.report("w1", new Report(100, 5, null, List.of(path("s2", 0), path("s3", 3), path("s4", 0))), result -> {});
        hub.report("w2", new Report(100, 5, null, List.of(path("s1", 0), path("s3", 3), path("s4", 0))), result -> {});
        writer.runDue();
        Outcome[] late = new Outcome[1];
        hub.report(
                "w1",
                new Report(100, 4, null, List.of(path("s2", 0), path("s3", 0), path("s4", 0))),
                result -> late[0] = result);
        writer.runDue();

        assertThat(late[0]).isEqualTo(Outcome.IGNORED_OLD);
        assertThat(status("s3")).isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);
    }

    @Test
    void tickWhenASelfReportGrowsOlderThanNoDataAfterThenNoDataWithoutAnyReport() {
        hub.start();
        report("w1", null, path("s2", 0));
        assertThat(status("s1")).isEqualTo(MeshStatus.OK);

        writer.advance(Duration.ofSeconds(3));
        assertThat(status("s1")).isEqualTo(MeshStatus.OK);
        writer.advance(MeshHub.JUDGE_INTERVAL);

        assertThat(status("s1")).isEqualTo(MeshStatus.NO_DATA);
        assertThat(served("s1/main").verdict()).isEqualTo(HealthState.UNKNOWN);
    }

    @Test
    void restoreWhenAPreviousProcesssReportsThenTheFirstJudgementHasThemAndTheirAgeCountsTowardsNoData() {
        Instant received = writer.clock().instant().minusSeconds(2);
        List<MeshHub.HeldReport> held = List.of(
                new MeshHub.HeldReport(
                        "w1", new Report(100, 7, null, List.of(path("s2", 0), path("s3", 3), path("s4", 0))), received),
                new MeshHub.HeldReport(
                        "w2", new Report(100, 9, null, List.of(path("s1", 0), path("s3", 3), path("s4", 0))), received),
                new MeshHub.HeldReport("w3", new Report(100, 4, null, List.of(path("s1", 0))), received),
                new MeshHub.HeldReport("w9", new Report(100, 1, null, List.of(path("s1", 3))), received));

        writer.execute(() -> assertThat(hub.restore(held))
                .as("w9 is no witness of the fleet")
                .isEqualTo(3));
        writer.runDue();
        hub.start();
        writer.runDue();

        assertThat(status("s3")).isEqualTo(MeshStatus.UNREACHABLE_FROM_SERVERS);
        assertThat(hub.view().lastReports())
                .containsOnly(Map.entry("w1", received), Map.entry("w2", received), Map.entry("w3", received));
        writer.execute(() -> assertThat(hub.heldReports())
                .extracting(MeshHub.HeldReport::witness)
                .containsExactly("w1", "w2", "w3"));
        writer.runDue();
        assertThat(report("w1", null, path("s2", 0), path("s3", 0)))
                .as("a later report of the same process")
                .isEqualTo(Outcome.IGNORED_OLD);

        writer.advance(MeshHub.JUDGE_INTERVAL.multipliedBy(2));
        assertThat(status("s2"))
                .as("w2's self-report, received 4 s ago by then")
                .isEqualTo(MeshStatus.NO_DATA);
    }

    @Test
    void reportWhenSelfCheckFailsThenServerUnavailableNamingTheCheck() {
        hub.start();
        report("w2", "tcp 127.0.0.1:443 (ConnectException: Connection refused)", path("s1", 0));

        assertThat(status("s2")).isEqualTo(MeshStatus.SERVER_UNAVAILABLE);
        assertThat(served("s2/main").source("mesh").orElseThrow().detail())
                .isEqualTo("server_unavailable: self-check tcp 127.0.0.1:443"
                        + " (ConnectException: Connection refused) fails (reported by w2)");
        assertThat(served("s2/main").lastErrorReason())
                .isEqualTo(served("s2/main").source("mesh").orElseThrow().detail());
    }

    @Test
    void reportWhenEveryServerOfARouteIsOutThenItsRouteServesThemInPanicAndTheyAreDegradedAndAlive() {
        hub.start();
        report("w3", "tcp :443 (refused)", path("s1", 0));
        report("w4", "tcp :443 (refused)", path("s1", 0));

        assertThat(hub.view().judgement().routes())
                .filteredOn(route -> route.route().equals("nl"))
                .singleElement()
                .satisfies(route -> {
                    assertThat(route.panic()).isTrue();
                    assertThat(route.servers()).containsExactly("s3", "s4");
                });
        assertThat(served("s3/main").verdict()).isEqualTo(HealthState.DEGRADED);
        assertThat(served("s3/main").alive()).isTrue();
        assertThat(served("s3/main").source("mesh").orElseThrow().detail())
                .endsWith("; served in panic: no server of route nl is in" + " rotation");
        assertThat(served("s1/main").verdict()).isEqualTo(HealthState.UNKNOWN);
    }

    @Test
    void reportWhenWitnessIsNotInTheFleetThenRefusedAndNotStored() {
        hub.start();

        assertThat(report("w9", null, path("s3", 3))).isEqualTo(Outcome.REFUSED_UNKNOWN_WITNESS);
        assertThat(hub.view().lastReports()).isEmpty();
    }

    @Test
    void tickWhenNothingChangesThenNoNewPublication() {
        hub.start();
        report("w1", null, path("s2", 0));
        int published = marks.size();

        writer.advance(Duration.ofMillis(2_500));

        assertThat(marks).hasSize(published);
    }

    @Test
    void tickWhenTheWallClockMovesBetweenReadsThenReportTimesStayAndNoNewPublication() {
        // A real clock: each read is a little later than the ticker's reading just before it.
        long[] reads = {0};
        Clock wall = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Instant instant() {
                return writer.clock().instant().plusNanos(++reads[0] * 1_000);
            }
        };
        List<MeshView> views = new ArrayList<>();
        ObservationUpdater realClockUpdater = new ObservationUpdater(config, writer, wall);
        MeshHub realClockHub = new MeshHub(config.section(MeshSettings.SECTION), writer, wall, realClockUpdater);
        realClockUpdater.store().watchPart(MeshView.PART, views::add);
        realClockHub.start();
        Outcome[] outcome = new Outcome[1];
        realClockHub.report("w1", new Report(100, 1, null, List.of(path("s2", 0))), result -> outcome[0] = result);
        writer.runDue();
        assertThat(outcome[0]).isEqualTo(Outcome.ACCEPTED);
        MeshView judged = realClockHub.view();
        int published = views.size();

        writer.advance(Duration.ofMillis(2_500));

        assertThat(views).hasSize(published);
        assertThat(realClockHub.view().paths()).isEqualTo(judged.paths());
        assertThat(realClockHub.view().lastReports()).isEqualTo(judged.lastReports());
    }
}
