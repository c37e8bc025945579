package io.observatory.page;

import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.SourceHealth;
import io.observatory.stats.HealthPingStats;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The status page's memory of round-trip times, which the observation does not keep (it holds each outbound's last
 * probe only): the last {@value #SAMPLES} samples of every outbound, fed from the observation's publications on the
 * writer, and the observation those samples are complete for. A sample is one new piece of RTT evidence: a standard
 * probe (its RTT, or {@link RttSamples#FAILED}), a new burst window (its average, or failed when no valid sample
 * succeeded), or, for an outbound a health source measures and no observer probes (a hub's entry point), a new
 * measurement (the mesh's median RTT of a new witness report).
 *
 * <p>Writes take one map update per changed outbound on the writer; readers on any thread take an outbound's
 * samples without locking. Costs per outbound one {@link RttSamples} (at most 144 bytes plus its 16-byte holder),
 * copied on each new sample, and one map entry (about 48 bytes): about 210 bytes, 2.1 MB at 10,000 outbounds; 1,000
 * probes a second make about 160 KB/s of short-lived copies.
 */
final class RttHistory {

    /** Samples kept per outbound: the sparkline's width. */
    static final int SAMPLES = 32;

    private final ObservationStore store;
    private final ConcurrentHashMap<String, RttSamples> byTag = new ConcurrentHashMap<>();
    // volatile: replaced on the writer after the samples of its events are recorded, read by the page's threads.
    private volatile @Nullable Observation observation;

    /** Follows {@code store} from its current observation on. */
    RttHistory(ObservationStore store) {
        this.store = store;
        store.watch(this::start, this::update);
    }

    /**
     * The latest observation whose samples are all recorded (the store's current one until the writer has handed
     * over the first): rows read from it are never newer than their sparkline, which may already be newer.
     */
    Observation observation() {
        Observation recorded = observation;
        return recorded != null ? recorded : store.current();
    }

    /** The samples of {@code tag}, oldest first; {@link RttSamples#NONE} for an outbound with none. */
    RttSamples of(String tag) {
        return byTag.getOrDefault(tag, RttSamples.NONE);
    }

    private void start(Observation initial) {
        initial.all().forEach(outbound -> record(null, outbound));
        observation = initial;
    }

    private void update(ObservationUpdate update) {
        for (OutboundEvent event : update.events()) {
            if (event instanceof OutboundEvent.Removed) {
                byTag.remove(event.tag());
            } else if (event instanceof OutboundEvent.Updated updated) {
                record(updated.previous(), updated.now());
            } else if (event instanceof OutboundEvent.Added added) {
                record(null, added.now());
            }
        }
        observation = update.observation();
    }

    private void record(@Nullable OutboundHealth previous, OutboundHealth now) {
        OptionalInt sample = sample(previous, now);
        if (sample.isPresent()) {
            byTag.compute(
                    now.tag(), (tag, held) -> (held == null ? RttSamples.NONE : held).plus(sample.getAsInt(), SAMPLES));
        }
    }

    /** The sample {@code now} adds to {@code previous}'s evidence, if it has new evidence. */
    @SuppressWarnings("ReferenceEquality") // a probe is recorded once: the same result is the same reference
    private static OptionalInt sample(@Nullable OutboundHealth previous, OutboundHealth now) {
        OutboundStatus status = now.probe();
        OutboundStatus before = previous == null ? null : previous.probe();
        if (status != null && status.lastProbe() != null) {
            ProbeResult probe = status.lastProbe();
            if (before != null && before.lastProbe() == probe) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(probe.success() ? micros(probe.rttNanos()) : RttSamples.FAILED);
        }
        if (status != null && status.healthPing() != null) {
            HealthPingStats window = status.healthPing();
            if (before != null && Objects.equals(before.healthPing(), window)) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(window.all() > window.fail() ? micros(window.averageNanos()) : RttSamples.FAILED);
        }
        SourceHealth.Measurement measured = measurement(now);
        if (status == null && measured != null && measured.lastTry() != null) {
            SourceHealth.Measurement earlier = previous == null ? null : measurement(previous);
            if (earlier != null && measured.lastTry().equals(earlier.lastTry())) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(
                    measured.delayMillis() == OutboundStatus.DEAD_DELAY_MILLIS
                            ? RttSamples.FAILED
                            : micros(measured.delayMillis() * 1_000_000));
        }
        return OptionalInt.empty();
    }

    /** What the first health source that measured {@code outbound} measured, or {@code null}. */
    private static SourceHealth.@Nullable Measurement measurement(OutboundHealth outbound) {
        return outbound.sources().stream()
                .map(SourceHealth::measurement)
                .filter(Objects::nonNull)
                .findFirst()
                .orElse(null);
    }

    private static int micros(long nanos) {
        return (int) Math.min(Integer.MAX_VALUE, nanos / 1_000);
    }
}
