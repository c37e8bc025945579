package io.observatory.state;

import com.google.protobuf.InvalidProtocolBufferException;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveEntry;
import io.observatory.state.v1.SavedPart;
import io.observatory.state.v1.SavedPassive;
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
 * measure the same thing now ({@link Measures}) with their burst samples and the passive entries of outbounds still
 * configured, each at most {@code max-age} old (a passive entry by its last call, and at most the passive policy's
 * reactivation period where that is longer) and at most {@code max-age} ahead of this process's clock (a time after
 * it counts as now); the rest is dropped and counted. The checkpoints' parts are handed on as saved, for each
 * {@link Checkpoint} to restore. O(entries).
 */
final class StateRestore {

    private StateRestore() {}

    /**
     * What is restored.
     *
     * @param statuses each marked {@link OutboundStatus#restoredFrom restored}, in the file's order
     * @param samples  the burst samples of the restored statuses' outbounds, oldest first, on this process's ticker
     * @param passive  passive states and call statistics of configured outbounds, their times on this process's ticker
     * @param parts    the checkpoints' saved parts, by name
     * @param dropped  what was dropped, by why
     * @param written  how long before this process's clock the file was written; negative when after it
     * @param maxAge   the max age applied
     */
    record Restoration(
            List<OutboundStatus> statuses,
            Map<String, List<RttRing.Sample>> samples,
            List<PassiveEntry> passive,
            Map<String, byte[]> parts,
            Dropped dropped,
            Duration written,
            Duration maxAge) {

        Restoration {
            parts = Map.copyOf(parts);
        }

        /**
         * The one line that says what was restored, with what the checkpoints restored from {@link #parts}, e.g.
         * {@code restored 9998 statuses, 12 passive states and 4 witness reports written 3.2s ago; dropped 2 (1 older
         * than 30s, 1 measuring something else now, 0 no longer configured)}, and {@code , 1 more than 30s in the
         * future} before the closing parenthesis when a time was that far ahead of this process's clock.
         */
        String summary(List<Checkpoint.Restored> checkpoints) {
            List<String> restored = new ArrayList<>();
            restored.add(statuses.size() + " statuses");
            restored.add(passive.size() + " passive states");
            int old = dropped.old();
            int future = dropped.future();
            int gone = dropped.gone();
            for (Checkpoint.Restored checkpoint : checkpoints) {
                restored.add(checkpoint.restored() + " " + checkpoint.what());
                old += checkpoint.old();
                future += checkpoint.future();
                gone += checkpoint.gone();
            }
            int changed = dropped.changed();
            String last = restored.remove(restored.size() - 1);
            return "restored " + String.join(", ", restored) + " and " + last + " written "
                    + (written.isNegative()
                            ? GoDuration.format(written.negated())
                                    + " in the future (another clock, or this one set back)"
                            : GoDuration.format(written) + " ago")
                    + "; dropped " + (old + future + changed + gone) + " (" + old + " older than "
                    + GoDuration.format(maxAge) + ", " + changed + " measuring something else now, " + gone
                    + " no longer configured"
                    + (future == 0 ? "" : ", " + future + " more than " + GoDuration.format(maxAge) + " in the future")
                    + ")";
        }
    }

    /**
     * The statuses and passive entries dropped, by why.
     *
     * @param old     measured longer than the max age ago
     * @param future  measured more than the max age after this process's clock
     * @param changed measuring something else now
     * @param gone    of outbounds no longer configured
     */
    record Dropped(int old, int future, int changed, int gone) {}

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
        Map<String, byte[]> parts = new HashMap<>();
        for (SavedPart part : saved.getPartsList()) {
            parts.put(part.getName(), part.getPayload().toByteArray());
        }
        // To the millisecond: the clocks' nanoseconds only make the line harder to read.
        Duration written = Duration.between(Timestamps.instant(saved.getWrittenTime()), now)
                .truncatedTo(ChronoUnit.MILLIS);
        return new Restoration(
                statuses, samples, passive, parts, new Dropped(old, future, changed, gone), written, maxAge);
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
