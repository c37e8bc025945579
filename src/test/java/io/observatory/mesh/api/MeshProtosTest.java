package io.observatory.mesh.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.observatory.mesh.api.v1.PathReport;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.SelfCheck;
import io.observatory.mesh.hub.MeshLedger;
import java.time.Instant;
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
}
