package io.observatory.state;

import com.google.protobuf.InvalidProtocolBufferException;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.mesh.MeshHub.HeldReport;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveEntry;
import io.observatory.state.v1.SavedPassive;
import io.observatory.state.v1.SavedReport;
import io.observatory.state.v1.SavedRing;
import io.observatory.state.v1.SavedState;
import io.observatory.state.v1.SavedStatus;
import io.observatory.stats.RttRing;
import io.observatory.text.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what of a state file's payload a starting process takes: the statuses of outbounds still configured that
 * measure the same thing now ({@link Measures}) with their burst samples, the passive entries of outbounds still
 * configured, and the held reports of witnesses still in a hub's fleet, each at most {@code max-age} old (a passive entry by its last call, and at
 * most the passive policy's reactivation period where that is longer) and at most
 * {@code max-age} ahead of this process's clock (a time after it counts as now); the rest is dropped and counted.
 * O(entries).
 */
final class StateRestore {

    private StateRestore() {}

    /**
     * What is restored, and the one line that says so.
     *
     * @param statuses each marked {@link OutboundStatus#restoredFrom restored}, in the file's order
     * @param samples  the burst samples of the restored statuses' outbounds, oldest first, on this process's ticker
     * @param passive  passive states and call statistics of configured outbounds, their times on this process's ticker
     * @param reports  a hub's reports, of witnesses of its fleet
     * @param summary  e.g. {@code restored 9998 statuses, 12 passive states and 4 witness reports written 3.2s ago;
     *                 dropped 2 (1 older than 30s, 1 measuring something else now, 0 no longer configured)}, and
     *                 {@code , 1 more than 30s in the future} before the closing parenthesis when a time was that far
     *                 ahead of this process's clock
     */
    record Restoration(
            List<OutboundStatus> statuses,
            Map<String, List<RttRing.Sample>> samples,
            List<PassiveEntry> passive,
            List<HeldReport> reports,
            String summary) {}

    /**
     * @param payload the payload of a complete state file
     * @param config  the configuration this process starts with
     * @param now     this process's wall clock
     * @param nowNanos the same moment on the writer's ticker
     * @param maxAge  entries measured longer ago are dropped
     * @throws IllegalArgumentException if the payload is no {@code SavedState} of this build: not protobuf, or a
     *                                  state, kind or hop name it does not know
     */
    static Restoration select(byte[] payload, ObservatoryConfig config, Instant now, long nowNanos, Duration maxAge) {
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
        int future = 0;
        int changed = 0;
        int gone = 0;
        for (SavedStatus status : saved.getStatusesList()) {
            Outbound outbound = outbounds.get(status.getTag());
            Optional<byte[]> measures = outbound == null ? Optional.empty() : Measures.of(config, outbound);
            if (outbound == null) {
                gone++;
            } else if (measures.isEmpty()
                    || !Arrays.equals(measures.get(), status.getMeasures().toByteArray())) {
                changed++;
            } else if (tooOld(Timestamps.instant(status.getMeasuredTime()), now, maxAge)) {
                old++;
            } else if (fromTheFuture(Timestamps.instant(status.getMeasuredTime()), now, maxAge)) {
                future++;
            } else {
                statuses.add(SavedStatuses.restore(status));
            }
        }
        Set<String> restored = new HashSet<>();
        statuses.forEach(status -> restored.add(status.tag()));
        Map<String, List<RttRing.Sample>> samples = new HashMap<>();
        for (SavedRing ring : saved.getRingsList()) {
            if (restored.contains(ring.getTag())) {
                samples.put(ring.getTag(), SavedRings.restore(ring, now, nowNanos));
            }
        }
        List<PassiveEntry> passive = new ArrayList<>(saved.getPassiveCount());
        Duration passiveMaxAge = passiveMaxAge(config, maxAge);
        for (SavedPassive entry : saved.getPassiveList()) {
            if (!outbounds.containsKey(entry.getTag())) {
                gone++;
            } else if (entry.hasCalls()
                    && tooOld(Timestamps.instant(entry.getCalls().getLastCall()), now, passiveMaxAge)) {
                old++;
            } else if (entry.hasCalls()
                    && fromTheFuture(Timestamps.instant(entry.getCalls().getLastCall()), now, passiveMaxAge)) {
                future++;
            } else {
                passive.add(SavedPassives.restore(entry, saved.getPassivePolicy(), now, nowNanos));
            }
        }
        List<HeldReport> reports = new ArrayList<>(saved.getMeshReportsCount());
        Set<String> witnesses = new HashSet<>();
        config.section(MeshSettings.SECTION).fleet().witnesses().forEach(witness -> witnesses.add(witness.name()));
        for (SavedReport report : saved.getMeshReportsList()) {
            if (!witnesses.contains(report.getWitness())) {
                gone++;
            } else if (tooOld(Timestamps.instant(report.getReceivedTime()), now, maxAge)) {
                old++;
            } else if (fromTheFuture(Timestamps.instant(report.getReceivedTime()), now, maxAge)) {
                future++;
            } else {
                reports.add(SavedReports.restore(report));
            }
        }
        // To the millisecond: the clocks' nanoseconds only make the line harder to read.
        Duration written = Duration.between(Timestamps.instant(saved.getWrittenTime()), now)
                .truncatedTo(ChronoUnit.MILLIS);
        String summary = "restored " + statuses.size() + " statuses, " + passive.size() + " passive states and "
                + reports.size() + " witness reports written "
                + (written.isNegative()
                        ? GoDuration.format(written.negated()) + " in the future (another clock, or this one set back)"
                        : GoDuration.format(written) + " ago")
                + "; dropped " + (old + future + changed + gone) + " (" + old + " older than "
                + GoDuration.format(maxAge) + ", " + changed + " measuring something else now, " + gone
                + " no longer configured"
                + (future == 0 ? "" : ", " + future + " more than " + GoDuration.format(maxAge) + " in the future")
                + ")";
        return new Restoration(statuses, samples, passive, reports, summary);
    }

    /**
     * How old a passive entry's last call may be: {@code max-age}, but at least the passive policy's reactivation
     * period. Balancers send no calls to an outbound its passive state ejected, so its last call ages while the
     * ejection lasts; dropped at {@code max-age} (three probe intervals), it would be restored unknown, and used
     * again, before the reactivation period that ends the ejection.
     */
    private static Duration passiveMaxAge(ObservatoryConfig config, Duration maxAge) {
        Duration reactivation = config.passive().policy().effectiveReactivationPeriod();
        return reactivation.compareTo(maxAge) > 0 ? reactivation : maxAge;
    }

    private static boolean tooOld(Instant measured, Instant now, Duration maxAge) {
        return Duration.between(measured, now).compareTo(maxAge) > 0;
    }

    /**
     * Whether {@code measured} is more than {@code maxAge} after {@code now}: a clock that far off says nothing of
     * the entry's age. Closer to {@code now}, an entry is restored as measured now.
     */
    private static boolean fromTheFuture(Instant measured, Instant now, Duration maxAge) {
        return Duration.between(now, measured).compareTo(maxAge) > 0;
    }
}
