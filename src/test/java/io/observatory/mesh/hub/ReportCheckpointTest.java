package io.observatory.mesh.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub.HeldReport;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hub's reports across a restart: what one hub held is written by its checkpoint and taken by the next hub's, each
 * report as held unless too old or of a witness no longer in the fleet.
 */
class ReportCheckpointTest {

    private static final Duration MAX_AGE = Duration.ofSeconds(30);
    private static final String[] HUB = {
        "mesh.hub.servers[0].name=s1",
        "mesh.hub.servers[0].route=eu",
        "mesh.hub.servers[0].entry-points[0].name=main",
        "mesh.hub.servers[0].entry-points[0].protocol=direct",
        "mesh.hub.servers[1].name=s2",
        "mesh.hub.servers[1].route=eu",
        "mesh.hub.servers[1].entry-points[0].name=main",
        "mesh.hub.servers[1].entry-points[0].protocol=direct",
        "mesh.hub.witnesses[0].name=w1",
        "mesh.hub.witnesses[0].site=de",
        "mesh.hub.witnesses[0].certificate-subject=w1",
        "mesh.hub.witnesses[1].name=w2",
        "mesh.hub.witnesses[1].site=nl",
        "mesh.hub.witnesses[1].certificate-subject=w2"
    };

    private final FakeScheduler writer = new FakeScheduler();

    private MeshHub hub(ObservatoryConfig config) {
        return new MeshHub(
                config.section(MeshSettings.SECTION),
                writer,
                writer.clock(),
                new ObservationUpdater(config, writer, writer.clock()));
    }

    /** The bytes a hub holding {@code reports} saves, as its checkpoint encodes them off the writer. */
    private byte[] saved(List<HeldReport> reports) {
        MeshHub before = hub(Configs.of(HUB));
        before.restore(reports);
        return new ReportCheckpoint(before).take().encode();
    }

    @Test
    void restoreWhenAHubHeldReportsThenEachAsHeldUnlessOlderThanTheMaxAge() {
        Instant now = writer.clock().instant();
        HeldReport fresh = new HeldReport(
                "w1",
                new MeshLedger.Report(
                        1_700_000_000_000L,
                        42,
                        "tcp 127.0.0.1:22 fails",
                        List.of(
                                new PathStreak("s1", "main", 0, 5, new LastProbe(true, null, "", 9_000)),
                                new PathStreak(
                                        "s2",
                                        "main",
                                        3,
                                        0,
                                        new LastProbe(false, ProbeError.Kind.CONNECT_TIMEOUT, "no answer", 0)))),
                now.minusSeconds(4));
        HeldReport stale = new HeldReport(
                "w2", new MeshLedger.Report(1_700_000_000_000L, 7, null, List.of()), now.minusSeconds(31));
        byte[] saved = saved(List.of(fresh, stale));
        ObservatoryConfig config = Configs.of(HUB);
        MeshHub after = hub(config);

        Checkpoint.Restored restored = new ReportCheckpoint(after).restore(saved, config, now, MAX_AGE);

        assertThat(restored).isEqualTo(new Checkpoint.Restored("witness reports", 1, 1, 0, 0));
        assertThat(after.heldReports()).containsExactly(fresh);
    }

    @Test
    void restoreWhenAWitnessLeftTheFleetOrTheInstanceIsNoLongerAHubThenItsReportCountsAsNoLongerConfigured() {
        Instant now = writer.clock().instant();
        HeldReport report = new HeldReport("w2", new MeshLedger.Report(1_700_000_000_000L, 7, null, List.of()), now);
        byte[] saved = saved(List.of(report));
        ObservatoryConfig withoutW2 = Configs.of(Arrays.copyOf(HUB, HUB.length - 3));
        ObservatoryConfig noHub = Configs.of();

        Checkpoint.Restored left = new ReportCheckpoint(hub(withoutW2)).restore(saved, withoutW2, now, MAX_AGE);
        Checkpoint.Restored gone = new ReportCheckpoint(hub(noHub)).restore(saved, noHub, now, MAX_AGE);

        assertThat(left).isEqualTo(new Checkpoint.Restored("witness reports", 0, 0, 0, 1));
        assertThat(gone).isEqualTo(new Checkpoint.Restored("witness reports", 0, 0, 0, 1));
    }

    @Test
    void takeWhenNoReportsThenNothingToSaveAndAnEmptyPartRestoresNothing() {
        ObservatoryConfig config = Configs.of(HUB);
        ReportCheckpoint checkpoint = new ReportCheckpoint(hub(config));

        assertThat(checkpoint.take()).isSameAs(Checkpoint.Taken.NOTHING);
        assertThat(checkpoint.restore(new byte[0], config, writer.clock().instant(), MAX_AGE))
                .isEqualTo(new Checkpoint.Restored("witness reports", 0, 0, 0, 0));
    }

    @Test
    void restoreWhenNotSavedReportsThenIllegalArgumentNamingThePart() {
        ObservatoryConfig config = Configs.of(HUB);
        byte[] garbage = "not protobuf at all".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> new ReportCheckpoint(hub(config))
                        .restore(garbage, config, writer.clock().instant(), MAX_AGE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("mesh.reports is not a hub's saved reports: ");
    }

    @Test
    void horizonWhenAHubThenItsNoDataAfter() {
        ObservatoryConfig config = Configs.of(HUB);

        assertThat(new ReportCheckpoint(hub(config)).horizon(config)).isEqualTo(Duration.ofSeconds(30));
    }
}
