package io.observatory.mesh.hub;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub.HeldReport;
import io.observatory.mesh.hub.state.v1.SavedReport;
import io.observatory.mesh.hub.state.v1.SavedReports;
import io.observatory.mesh.hub.state.v1.SavedStreak;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.probe.ProbeError;
import io.observatory.snapshot.Checkpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A hub's witness reports across a restart ({@code mesh.reports} in the state file): what the ledger held per witness
 * (process start, sequence, failing self-check, streaks with their last probes) and when it arrived, so a restarted
 * hub judges at once instead of after a report interval. A report older than the max age (by default at least the
 * hub's {@code no-data-after}: an older one would read as no data anyway) or of a witness no longer in the fleet is
 * dropped. About 60 bytes per streak plus its error's reason: 10,000 streaks (100 witnesses × 100 entry points) take
 * about 1 MB.
 */
public final class ReportCheckpoint implements Checkpoint {

    private final MeshHub hub;

    public ReportCheckpoint(MeshHub hub) {
        this.hub = hub;
    }

    @Override
    public String name() {
        return "mesh.reports";
    }

    @Override
    public Taken take() {
        List<HeldReport> held = hub.heldReports();
        return held.isEmpty() ? Taken.NOTHING : () -> encode(held);
    }

    @Override
    public Duration horizon(ObservatoryConfig config) {
        return config.section(MeshSettings.SECTION).rules().noDataAfter();
    }

    /** @throws IllegalArgumentException if the bytes are no saved reports, or name an error kind this build lacks */
    @Override
    public Restored restore(byte[] saved, ObservatoryConfig config, Instant now, Duration maxAge) {
        SavedReports reports;
        try {
            reports = SavedReports.parseFrom(saved);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("mesh.reports is not a hub's saved reports: " + e.getMessage(), e);
        }
        Set<String> witnesses = new HashSet<>();
        config.section(MeshSettings.SECTION).fleet().witnesses().forEach(witness -> witnesses.add(witness.name()));
        List<HeldReport> kept = new ArrayList<>(reports.getReportsCount());
        int old = 0;
        int future = 0;
        int gone = 0;
        for (SavedReport report : reports.getReportsList()) {
            Duration age = Duration.between(instant(report.getReceivedTime()), now);
            if (!witnesses.contains(report.getWitness())) {
                gone++;
            } else if (age.compareTo(maxAge) > 0) {
                old++;
            } else if (age.negated().compareTo(maxAge) > 0) {
                future++;
            } else {
                kept.add(restore(report));
            }
        }
        int taken = hub.restore(kept);
        return new Restored("witness reports", taken, old, future, gone + kept.size() - taken);
    }

    private static byte[] encode(List<HeldReport> held) {
        SavedReports.Builder saved = SavedReports.newBuilder();
        held.forEach(report -> saved.addReports(save(report)));
        return saved.build().toByteArray();
    }

    @SuppressWarnings("JavaInstantGetSecondsGetNano") // a Timestamp is exactly seconds and their nanosecond part
    private static SavedReport save(HeldReport held) {
        MeshLedger.Report report = held.report();
        SavedReport.Builder saved = SavedReport.newBuilder()
                .setWitness(held.witness())
                .setProcessStartMillis(report.processStartMillis())
                .setSequence(report.sequence())
                .setFailingCheck(report.failingCheck() == null ? "" : report.failingCheck())
                .setReceivedTime(Timestamp.newBuilder()
                        .setSeconds(held.receivedAt().getEpochSecond())
                        .setNanos(held.receivedAt().getNano()));
        for (PathStreak streak : report.streaks()) {
            LastProbe last = streak.last();
            saved.addStreaks(SavedStreak.newBuilder()
                    .setServer(streak.server())
                    .setEntryPoint(streak.entryPoint())
                    .setFailures(streak.failures())
                    .setSuccesses(streak.successes())
                    .setLastSuccess(last.success())
                    .setLastErrorKind(
                            last.errorKind() == null ? "" : last.errorKind().name())
                    .setLastError(last.error())
                    .setLastRttNanos(last.rttNanos()));
        }
        return saved.build();
    }

    /** @throws IllegalArgumentException if an error kind is not one this build knows, or a streak is negative */
    private static HeldReport restore(SavedReport saved) {
        List<PathStreak> streaks = new ArrayList<>(saved.getStreaksCount());
        for (SavedStreak streak : saved.getStreaksList()) {
            streaks.add(new PathStreak(
                    streak.getServer(),
                    streak.getEntryPoint(),
                    streak.getFailures(),
                    PathStreak.successesRead(streak.getFailures(), streak.getSuccesses()),
                    new LastProbe(
                            streak.getLastSuccess(),
                            streak.getLastErrorKind().isEmpty()
                                    ? null
                                    : ProbeError.Kind.valueOf(streak.getLastErrorKind()),
                            streak.getLastError(),
                            streak.getLastRttNanos())));
        }
        return new HeldReport(
                saved.getWitness(),
                new MeshLedger.Report(
                        saved.getProcessStartMillis(),
                        saved.getSequence(),
                        saved.getFailingCheck().isEmpty() ? null : saved.getFailingCheck(),
                        streaks),
                instant(saved.getReceivedTime()));
    }

    private static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }
}
