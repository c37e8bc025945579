package io.observatory.mesh.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.observatory.mesh.api.v1.ExtraMetric;
import io.observatory.mesh.api.v1.GetFleetResponse;
import io.observatory.mesh.api.v1.PathReport;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.SelfCheck;
import io.observatory.mesh.api.v1.Server;
import io.observatory.mesh.api.v1.ServerMetrics;
import io.observatory.mesh.config.FleetWitnessSettings;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshLedger;
import io.observatory.mesh.judge.WitnessAssignment;
import io.observatory.testing.Configs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a witness's report may put into the hub: bounded, valid, and refused with the field named otherwise. */
class MeshProtosTest {

    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    private static ReportRequest.Builder report() {
        return ReportRequest.newBuilder()
                .setWitness("w1")
                .setProcessStartTime(Timestamp.newBuilder().setSeconds(NOW.getEpochSecond() - 60))
                .setSequence(1);
    }

    private static String refusal(ReportRequest.Builder request) {
        StatusRuntimeException refused =
                catchThrowableOfType(StatusRuntimeException.class, () -> MeshProtos.report(request.build(), NOW));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        return refused.getStatus().getDescription();
    }

    @Test
    void fleetWhenAssignmentIsKPerServerThenAWitnessIsHandedItsServersAndItsOwnOnly() {
        HubSettings hub = Configs.yaml("""
                        observatory.mesh:
                          hub:
                            assignment: k-per-server
                            witnesses-per-server: 1
                            quorum: 1
                            servers:
                              - { name: s1, route: r, entry-points: [ { name: main, protocol: direct } ] }
                              - { name: s2, route: r, entry-points: [ { name: main, protocol: direct } ] }
                              - { name: s3, route: r, entry-points: [ { name: main, protocol: direct } ] }
                              - { name: s4, route: r, entry-points: [ { name: main, protocol: direct } ] }
                            witnesses:
                              - { name: w1, site: a, server: s1, certificate-subject: w1 }
                              - { name: w2, site: b, server: s2, certificate-subject: w2 }
                              - { name: w3, site: c, server: s3, certificate-subject: w3 }
                              - { name: w4, site: d, server: s4, certificate-subject: w4 }
                        """).section(MeshSettings.SECTION).hub();
        WitnessAssignment assignment = hub.witnessAssignment(hub.fleet());
        FleetWitnessSettings w1 = hub.witnesses().get(0);

        GetFleetResponse fleet = MeshProtos.fleet(hub, w1, assignment);

        List<String> expected = new ArrayList<>(assignment.serversOf("w1"));
        expected.add("s1");
        assertThat(fleet.getServersList())
                .extracting(Server::getName)
                .as("w1's servers by the assignment, and its own")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(MeshProtos.fleet(hub, w1, WitnessAssignment.full(hub.fleet()))
                        .getServersCount())
                .as("full: every server")
                .isEqualTo(4);
    }

    @Test
    void reportWhenProcessStartIsFarAheadOfTheHubsClockThenRefusedNamingBoth() {
        assertThat(refusal(report().setProcessStartTime(Timestamp.newBuilder()
                        .setSeconds(NOW.plusSeconds(3_600).getEpochSecond()))))
                .isEqualTo("process_start_time:"
                        + " 2026-12-01T13:00:00Z (expected: not after the hub's clock, 2026-12-01T12:00:00Z, by more than 5"
                        + " minutes)");
        assertThat(MeshProtos.report(
                                report().setProcessStartTime(Timestamp.newBuilder()
                                                .setSeconds(NOW.plusSeconds(60).getEpochSecond()))
                                        .build(),
                                NOW)
                        .processStartMillis())
                .isEqualTo(NOW.plusSeconds(60).toEpochMilli());
    }

    @Test
    void reportWhenProcessStartIsOutOfTimestampsRangeOrUnsetThenRefused() {
        assertThat(refusal(report().setProcessStartTime(Timestamp.newBuilder().setSeconds(Long.MIN_VALUE))))
                .isEqualTo("process_start_time: out of range (expected: when the witness's process started)");
        assertThat(refusal(report().clearProcessStartTime()))
                .isEqualTo("process_start_time: unset (expected: when the witness's process started)");
    }

    @Test
    void reportWhenSequenceIsZeroOrBeyondSignedRangeThenRefused() {
        assertThat(refusal(report().setSequence(0))).startsWith("sequence: 0 (expected: 1 to 9223372036854775807");
        assertThat(refusal(report().setSequence(-1))).startsWith("sequence: 18446744073709551615 (expected:");
    }

    @Test
    void reportWhenTextsAreLongOrHoldLineBreaksThenCutAndFlattened() {
        MeshLedger.Report report = MeshProtos.report(
                report().addSelfChecks(SelfCheck.newBuilder()
                                .setName("tcp :443")
                                .setPassing(false)
                                .setDetail("refused\nINFO forged log line"))
                        .addPaths(PathReport.newBuilder()
                                .setServer("s2")
                                .setEntryPoint("main")
                                .setFailures(-1)
                                .setLastError("x".repeat(5_000)))
                        .build(),
                NOW);

        assertThat(report.failingCheck()).isEqualTo("tcp :443 (refused INFO forged log line)");
        assertThat(report.streaks().get(0).last().error())
                .hasSize(MeshProtos.MAX_TEXT)
                .endsWith("…");
        assertThat(report.streaks().get(0).failures()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void reportWhenAnEntryPointIsRepeatedThenRefusedNamingTheIndex() {
        PathReport path =
                PathReport.newBuilder().setServer("s2").setEntryPoint("main").build();

        assertThat(refusal(report().addPaths(path).addPaths(path)))
                .isEqualTo("paths[1]: s2/main (expected: each entry point once)");
        assertThat(MeshProtos.report(report().addPaths(path).build(), NOW).streaks())
                .hasSize(1);
    }

    @Test
    void reportWhenMetricsAreOutOfRangeThenRefusedNamingTheField() {
        assertThat(refusal(report().setMetrics(ServerMetrics.newBuilder().setCpuUsage(1.5))))
                .isEqualTo("metrics.cpu_usage: 1.5 (expected: 0 to 1)");
        assertThat(refusal(report().setMetrics(ServerMetrics.newBuilder().setLoad1(Double.NaN))))
                .isEqualTo("metrics.load1: NaN (expected: a finite number >= 0)");
        assertThat(refusal(report().setMetrics(ServerMetrics.newBuilder().setMemoryTotalBytes(-1))))
                .isEqualTo("metrics.memory_total_bytes: -1 (expected: >= 0)");
        assertThat(refusal(report().setMetrics(ServerMetrics.newBuilder()
                        .addExtra(ExtraMetric.newBuilder().setName("bad\rname").setValue(1)))))
                .isEqualTo(
                        "metrics.extra[0].name: 8 characters (expected: 1 to 200 characters, no control characters)");
        ServerMetrics.Builder many = ServerMetrics.newBuilder();
        for (int i = 0; i < 33; i++) {
            many.addExtra(ExtraMetric.newBuilder().setName("s" + i).setValue(i));
        }
        assertThat(refusal(report().setMetrics(many))).isEqualTo("metrics.extra: 33 series (expected: at most 32)");
    }

    @Test
    void reportWhenMetricsAreValidThenTakenAsSentAndAbsentValuesStayAbsent() {
        io.observatory.mesh.protocol.ServerMetrics taken = MeshProtos.report(
                        report().setMetrics(ServerMetrics.newBuilder()
                                        .setCpuUsage(0.25)
                                        .setTcpConnections(7)
                                        .addExtra(ExtraMetric.newBuilder()
                                                .setName("xray_connections{inbound=\"vless\"}")
                                                .setValue(3)))
                                .build(),
                        NOW)
                .metrics();

        assertThat(taken)
                .isEqualTo(new io.observatory.mesh.protocol.ServerMetrics(
                        0.25,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        7L,
                        List.of(new io.observatory.mesh.protocol.ServerMetrics.Extra(
                                "xray_connections{inbound=\"vless\"}", 3))));
    }
}
