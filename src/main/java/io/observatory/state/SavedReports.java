package io.observatory.state;

import io.observatory.mesh.MeshHub.HeldReport;
import io.observatory.mesh.MeshLedger;
import io.observatory.probe.ProbeError;
import io.observatory.state.v1.SavedReport;
import io.observatory.state.v1.SavedStreak;
import java.util.ArrayList;
import java.util.List;

/**
 * A hub's held witness report to and from the state file's {@code SavedReport}: the report as the ledger holds it
 * (process start, sequence, failing self-check, streaks with last probes) and when it arrived. About 60 bytes per
 * streak plus its error's reason: 10,000 streaks (100 witnesses × 100 entry points) take about 1 MB.
 */
final class SavedReports {

    private SavedReports() {}

    static SavedReport save(HeldReport held) {
        MeshLedger.Report report = held.report();
        SavedReport.Builder saved = SavedReport.newBuilder()
                .setWitness(held.witness())
                .setProcessStartMillis(report.processStartMillis())
                .setSequence(report.sequence())
                .setFailingCheck(report.failingCheck() == null ? "" : report.failingCheck())
                .setReceivedTime(Timestamps.of(held.receivedAt()));
        for (MeshLedger.PathStreak streak : report.streaks()) {
            MeshLedger.LastProbe last = streak.last();
            saved.addStreaks(SavedStreak.newBuilder()
                    .setServer(streak.server())
                    .setEntryPoint(streak.entryPoint())
                    .setFailures(streak.failures())
                    .setLastSuccess(last.success())
                    .setLastErrorKind(
                            last.errorKind() == null ? "" : last.errorKind().name())
                    .setLastError(last.error())
                    .setLastRttNanos(last.rttNanos()));
        }
        return saved.build();
    }

    /** @throws IllegalArgumentException if an error kind is not one this build knows, or a streak is negative */
    static HeldReport restore(SavedReport saved) {
        List<MeshLedger.PathStreak> streaks = new ArrayList<>(saved.getStreaksCount());
        for (SavedStreak streak : saved.getStreaksList()) {
            streaks.add(new MeshLedger.PathStreak(
                    streak.getServer(),
                    streak.getEntryPoint(),
                    streak.getFailures(),
                    new MeshLedger.LastProbe(
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
                Timestamps.instant(saved.getReceivedTime()));
    }
}
