package io.observatory.mesh.witness;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.mesh.config.HubTlsSettings;
import io.observatory.mesh.config.WitnessMetricsSettings;
import io.observatory.mesh.config.WitnessSettings;
import io.observatory.mesh.protocol.HubLink;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.mesh.protocol.WitnessFleet;
import io.observatory.mesh.protocol.WitnessReport;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.testing.FakeScheduler;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import oshi.SystemInfo;
import reactor.core.publisher.Mono;

/**
 * The witness's schedule with fake time: probes of every neighbour's entry point each probe interval, streaks that
 * count failures and reset on success, whole-state reports numbered from 1 each report interval, a fleet change that
 * drops the paths that left it, and nothing after stop.
 */
class MeshWitnessTest {

    private static final Instant START = Instant.parse("2026-11-29T12:00:00Z");

    private final FakeScheduler writer = new FakeScheduler();
    private final FakeScheduler reportThread = new FakeScheduler();
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final List<String> probed = new ArrayList<>();
    private final List<WitnessReport> reports = new ArrayList<>();
    private WitnessFleet fleet = fleet("s2", "s3");

    private final HubLink hub = new HubLink() {
        @Override
        public Optional<WitnessFleet> fetchFleet() {
            return Optional.of(fleet);
        }

        @Override
        public int send(WitnessReport report) {
            reports.add(report);
            return 1;
        }

        @Override
        public void close() {}
    };

    private final MeshWitness witness = new MeshWitness(
            "w1",
            noSelfChecks(),
            null,
            writer,
            reportThread,
            this::probe,
            writer.clock(),
            hub,
            Duration.ofSeconds(10),
            null);

    private static WitnessFleet fleet(String... servers) {
        Map<String, WitnessFleet.Target> targets = new LinkedHashMap<>();
        for (String server : servers) {
            Outbound outbound = new Outbound(server + "/main", Protocol.SOCKS, "127.0.0.1", 1080, null, null, null);
            targets.put(outbound.tag(), new WitnessFleet.Target(server, "main", outbound));
        }
        return new WitnessFleet(
                targets,
                URI.create("http://127.0.0.1:18190/generate_204"),
                Duration.ofMillis(500),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1));
    }

    private Mono<ProbeResult> probe(ProbeRequest request) {
        String tag = request.outbound().tag();
        probed.add(tag);
        boolean fails = failing.contains(tag);
        return Mono.just(new ProbeResult(
                tag,
                !fails,
                fails ? 0 : 3_000_000,
                ProbePhases.NONE,
                fails ? 0 : 204,
                START,
                START,
                fails
                        ? new ProbeError(
                                ProbeError.Kind.CONNECTION_REFUSED, ProbeError.Hop.PROXY, "connection refused", null)
                        : null));
    }

    /** Moves both threads' time by {@code step}, in small steps so that hops between them run in order. */
    private void advance(Duration step) {
        for (long waited = 0; waited < step.toMillis(); waited += 50) {
            writer.advance(Duration.ofMillis(50));
            reportThread.advance(Duration.ofMillis(50));
            writer.runDue();
            reportThread.runDue();
        }
    }

    private PathStreak path(WitnessReport report, String server) {
        return report.paths().stream()
                .filter(path -> path.server().equals(server))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void roundsWhenATargetFailsThenItsStreakGrowsAndOneSuccessResetsIt() {
        failing.add("s3/main");
        witness.start();
        advance(Duration.ofMillis(2_100));

        WitnessReport latest = reports.get(reports.size() - 1);
        assertThat(path(latest, "s2").failures()).isZero();
        assertThat(path(latest, "s2").last().rttNanos()).isEqualTo(3_000_000);
        assertThat(path(latest, "s3").failures()).isGreaterThanOrEqualTo(3);
        assertThat(path(latest, "s3").last().errorKind()).isEqualTo(ProbeError.Kind.CONNECTION_REFUSED);

        failing.clear();
        advance(Duration.ofMillis(1_100));

        assertThat(path(reports.get(reports.size() - 1), "s3").failures()).isZero();
    }

    @Test
    void roundsWhenMetricsAreReadThenEachReportCarriesThisMachinesAndRatesFromTheSecondOn() {
        MeshWitness measuring = new MeshWitness(
                "w1",
                noSelfChecks(),
                new HostMetrics("w1", Path.of("/"), null),
                writer,
                reportThread,
                this::probe,
                writer.clock(),
                hub,
                Duration.ofSeconds(10),
                null);
        measuring.start();
        advance(Duration.ofMillis(1_100));
        measuring.stop();

        assertThat(reports).hasSizeGreaterThanOrEqualTo(2);
        ServerMetrics first = reports.get(0).metrics();
        assertThat(first.cpuUsage()).as("no CPU usage before a second reading").isNull();
        assertThat(first.networkInBytesPerSecond()).isNull();
        assertThat(first.memoryTotalBytes())
                .isEqualTo(new SystemInfo().getHardware().getMemory().getTotal());
        assertThat(first.memoryAvailableBytes()).isBetween(1L, first.memoryTotalBytes());
        assertThat(first.diskTotalBytes()).isPositive();
        assertThat(first.diskFreeBytes()).isBetween(0L, first.diskTotalBytes());
        assertThat(first.load1()).isNotNull().isNotNegative();
        assertThat(first.tcpConnections()).isNotNull().isNotNegative();
        ServerMetrics second = reports.get(1).metrics();
        assertThat(second.cpuUsage()).isBetween(0.0, 1.0);
        assertThat(second.networkInBytesPerSecond()).isNotNull().isNotNegative();
        assertThat(second.networkOutBytesPerSecond()).isNotNull().isNotNegative();
    }

    @Test
    void roundsWhenNoMetricsReaderThenReportsCarryNone() {
        witness.start();
        advance(Duration.ofMillis(1_100));

        assertThat(reports).extracting(WitnessReport::metrics).containsOnly(ServerMetrics.NONE);
    }

    @Test
    void roundsWhenTheyRunThenEveryReportCarriesTheWholeStateNumberedFromOneWithOneProcessStart() {
        witness.start();
        advance(Duration.ofMillis(3_100));

        assertThat(reports).extracting(WitnessReport::sequence).containsExactly(1L, 2L, 3L, 4L);
        assertThat(reports).extracting(WitnessReport::processStart).containsOnly(START);
        assertThat(reports).extracting(WitnessReport::witness).containsOnly("w1");
        assertThat(reports.get(0).paths()).isEmpty();
        assertThat(reports.get(3).paths()).extracting(PathStreak::server).containsExactly("s2", "s3");
    }

    @Test
    void probesWhenThePreviousProbeOfAnEntryPointIsStillInFlightThenNoSecondOne() {
        MeshWitness slow = new MeshWitness(
                "w1",
                noSelfChecks(),
                null,
                writer,
                reportThread,
                request -> {
                    probed.add(request.outbound().tag());
                    return Mono.never();
                },
                writer.clock(),
                hub,
                Duration.ofSeconds(10),
                null);
        slow.start();
        advance(Duration.ofMillis(2_100));

        assertThat(probed).containsExactly("s2/main", "s3/main");
    }

    @Test
    void fleetWhenAServerLeavesThenItsPathIsNoLongerProbedOrReported() {
        witness.start();
        advance(Duration.ofMillis(1_100));
        fleet = fleet("s2");
        advance(Duration.ofMillis(1_100));
        probed.clear();
        advance(Duration.ofMillis(1_100));

        assertThat(probed).containsOnly("s2/main");
        assertThat(reports.get(reports.size() - 1).paths())
                .extracting(PathStreak::server)
                .containsExactly("s2");
    }

    @Test
    void stopWhenCalledThenNoReportOrProbeFollows() {
        witness.start();
        advance(Duration.ofMillis(1_100));
        witness.stop();
        advance(Duration.ofMillis(100));
        int sent = reports.size();
        probed.clear();

        advance(Duration.ofSeconds(3));

        assertThat(reports).hasSize(sent);
        assertThat(probed).isEmpty();
    }

    /** Witness w1 with no self-checks. */
    private static SelfChecks noSelfChecks() {
        return new SelfChecks(new WitnessSettings(
                "w1",
                List.of(),
                Duration.ofSeconds(2),
                List.of(),
                null,
                null,
                new HubTlsSettings(false, null, null, null),
                false,
                new WitnessMetricsSettings(true, "/", null, List.of())));
    }
}
