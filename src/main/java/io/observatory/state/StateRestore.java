package io.observatory.state;

import com.google.protobuf.InvalidProtocolBufferException;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.mesh.MeshHub.HeldReport;
import io.observatory.state.v1.SavedReport;
import io.observatory.state.v1.SavedState;
import io.observatory.state.v1.SavedStatus;
import io.observatory.status.OutboundStatus;
import io.observatory.text.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what of a state file's payload a starting process takes: the statuses of outbounds still configured that
 * measure the same thing now ({@link Measures}) and the held reports, each at most {@code max-age} old; the rest is
 * dropped and counted. O(entries).
 */
final class StateRestore {

    private StateRestore() {
    }

    /**
     * What is restored, and the one line that says so.
     *
     * @param statuses each marked {@link OutboundStatus#restoredFrom restored}, in the file's order
     * @param reports  a hub's reports
     * @param summary  e.g. {@code restored 9998 statuses and 4 witness reports written 3.2s ago; dropped 2 (1 older
     *                 than 30s, 1 measuring something else now, 0 no longer configured)}
     */
    record Restoration(List<OutboundStatus> statuses, List<HeldReport> reports, String summary) {
    }

    /**
     * @param payload the payload of a complete state file
     * @param config  the configuration this process starts with
     * @param now     this process's wall clock
     * @param maxAge  entries measured longer ago are dropped
     * @throws IllegalArgumentException if the payload is no {@code SavedState} of this build: not protobuf, or a
     *                                  state, kind or hop name it does not know
     */
    static Restoration select(byte[] payload, ObservatoryConfig config, Instant now, Duration maxAge) {
        SavedState saved;
        try {
            saved = SavedState.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException("payload is not a saved state: " + e.getMessage(), e);
        }
        Map<String, Outbound> outbounds = new HashMap<>();
        config.observedOutbounds().forEach(outbound -> outbounds.put(outbound.tag(), outbound));
        List<OutboundStatus> statuses = new ArrayList<>(saved.getStatusesCount());
        int old = 0;
        int changed = 0;
        int gone = 0;
        for (SavedStatus status : saved.getStatusesList()) {
            Outbound outbound = outbounds.get(status.getTag());
            Optional<byte[]> measures = outbound == null ? Optional.empty() : Measures.of(config, outbound);
            if (outbound == null) {
                gone++;
            } else if (measures.isEmpty() || !Arrays.equals(measures.get(), status.getMeasures().toByteArray())) {
                changed++;
            } else if (tooOld(Timestamps.instant(status.getMeasuredTime()), now, maxAge)) {
                old++;
            } else {
                statuses.add(SavedStatuses.restore(status));
            }
        }
        List<HeldReport> reports = new ArrayList<>(saved.getMeshReportsCount());
        for (SavedReport report : saved.getMeshReportsList()) {
            if (tooOld(Timestamps.instant(report.getReceivedTime()), now, maxAge)) {
                old++;
            } else {
                reports.add(SavedReports.restore(report));
            }
        }
        Duration written = Duration.between(Timestamps.instant(saved.getWrittenTime()), now);
        String summary = "restored " + statuses.size() + " statuses and " + reports.size()
                + " witness reports written " + GoDuration.format(written.isNegative() ? Duration.ZERO : written)
                + " ago; dropped " + (old + changed + gone) + " (" + old + " older than " + GoDuration.format(maxAge)
                + ", " + changed + " measuring something else now, " + gone + " no longer configured)";
        return new Restoration(statuses, reports, summary);
    }

    private static boolean tooOld(Instant measured, Instant now, Duration maxAge) {
        return Duration.between(measured, now).compareTo(maxAge) > 0;
    }
}
