package io.observatory.management;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.observatory.probe.MeteredProber;
import io.observatory.status.ObservationStore;
import io.observatory.status.ObservationStore.Publication;
import io.observatory.status.OutboundStatus;
import io.observatory.time.Ticker;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Removes the probe meters ({@link MeteredProber}'s timers and counter, tagged by outbound) of outbounds that are not
 * in the observation, so the number of series stays bounded however often outbounds are added and removed. The
 * prober records whatever it probes and cannot tell; this follows the published snapshots. Checked at each
 * publication:
 * <ul>
 *   <li>an outbound that was in the previous snapshot and is not in this one loses its meters at once;
 *   <li>meters of an outbound that is not in the observation otherwise (a probe that completed after its outbound was
 *       removed) are removed at the first publication {@link #UNOBSERVED_GRACE} or more after they were first seen.
 *       The grace lets a new outbound's first probe, recorded just before the snapshot that adds the outbound, keep
 *       its meters.
 * </ul>
 */
@Component
class ProbeMeterPruner {

    /** How long meters of an outbound missing from the observation are kept when it did not just leave it. */
    static final Duration UNOBSERVED_GRACE = Duration.ofSeconds(30);

    private static final Set<String> PROBE_METERS =
            Set.of(MeteredProber.RTT, MeteredProber.PHASE, MeteredProber.RESULTS);
    private static final String OUTBOUND_TAG = "outbound";

    private final MeterRegistry registry;
    private final Ticker ticker;
    // Probe meters by outbound tag, kept current by the registry's add/remove callbacks (prober threads), so a
    // publication looks at the outbounds that have meters instead of walking every meter in the registry.
    private final Map<String, Set<Meter.Id>> probeMetersByOutbound = new ConcurrentHashMap<>();
    // Both guarded by this: publications come from the store's one writer, but a replaced observer may hand over to a
    // new writer thread; the lock keeps the bookkeeping consistent across such a change.
    private Set<String> observedBefore = Set.of();
    private final Map<String, Long> unobservedSinceNanos = new HashMap<>();

    /**
     * Starts listening to {@code store} and {@code registry}; created before the observer starts, so it sees every
     * publication and every probe meter.
     *
     * @param ticker measures {@link #UNOBSERVED_GRACE}
     */
    ProbeMeterPruner(ObservationStore store, MeterRegistry registry, Ticker ticker) {
        this.registry = registry;
        this.ticker = ticker;
        registry.config().onMeterAdded(meter -> track(meter.getId()));
        registry.config().onMeterRemoved(meter -> outboundOf(meter.getId()).ifPresent(tag ->
                probeMetersByOutbound.computeIfPresent(tag, (unused, ids) -> {
                    ids.remove(meter.getId());
                    return ids.isEmpty() ? null : ids;
                })));
        registry.getMeters().forEach(meter -> track(meter.getId()));
        store.addListener(this::onPublish);
    }

    private synchronized void onPublish(Publication publication) {
        long now = ticker.nanoTime();
        List<OutboundStatus> statuses = publication.observation().statuses();
        Set<String> observed = new HashSet<>(statuses.size() * 4 / 3 + 1);
        statuses.forEach(status -> observed.add(status.tag()));
        Set<String> unobserved = new HashSet<>();
        for (String tag : probeMetersByOutbound.keySet()) {
            if (!observed.contains(tag)) {
                unobserved.add(tag);
            }
        }
        unobservedSinceNanos.keySet().retainAll(unobserved);
        for (String tag : unobserved) {
            long since = unobservedSinceNanos.computeIfAbsent(tag, unused -> now);
            if (observedBefore.contains(tag) || now - since >= UNOBSERVED_GRACE.toNanos()) {
                List.copyOf(probeMetersByOutbound.getOrDefault(tag, Set.of())).forEach(registry::remove);
                unobservedSinceNanos.remove(tag);
            }
        }
        observedBefore = observed;
    }

    private void track(Meter.Id id) {
        outboundOf(id).ifPresent(tag ->
                probeMetersByOutbound.computeIfAbsent(tag, unused -> ConcurrentHashMap.newKeySet()).add(id));
    }

    private static Optional<String> outboundOf(Meter.Id id) {
        return PROBE_METERS.contains(id.getName()) ? Optional.ofNullable(id.getTag(OUTBOUND_TAG)) : Optional.empty();
    }
}
