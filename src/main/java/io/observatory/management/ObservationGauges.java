package io.observatory.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.observatory.status.ObservationStore;
import io.observatory.status.ObservationStore.Publication;
import io.observatory.status.OutboundStatus;
import io.observatory.time.Ticker;
import io.observatory.verdict.HealthBoard;
import io.observatory.verdict.VerdictKeeper;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Gauges read from the published observation; the per-outbound ones follow the outbounds in the latest snapshot
 * (registered when an outbound appears, removed when it leaves), so their number stays bounded:
 * <ul>
 *   <li>{@value #ALIVE} (tag {@code outbound}): 1 when the outbound is alive, 0 when not (Xray's {@code alive} as the
 *       gRPC API reports it: false while passive health says unhealthy);
 *   <li>{@value #LAST_SUCCESS_AGE} (seconds, tag {@code outbound}): time since the outbound's last successful probe,
 *       for outbounds that have one (the standard observer's {@code last_seen_time}; burst statuses carry no times);
 *   <li>{@value #SNAPSHOT_AGE} (seconds): time since the observer last published a snapshot; absent before the first.
 * </ul>
 * Values are computed when read (a scrape), from the latest publication and the injected clocks; Micrometer converts
 * the ages to its base unit, seconds.
 */
@Component
class ObservationGauges {

    /** Alive gauge; Prometheus shows {@code observatory_outbound_alive}. */
    static final String ALIVE = "observatory.outbound.alive";
    /** Time since last success; Prometheus shows {@code observatory_outbound_last_success_age_seconds}. */
    static final String LAST_SUCCESS_AGE = "observatory.outbound.last.success.age";
    /** Snapshot age; Prometheus shows {@code observatory_observation_age_seconds}. */
    static final String SNAPSHOT_AGE = "observatory.observation.age";

    private final Supplier<HealthBoard> board;
    private final MeterRegistry registry;
    private final Clock clock;
    private final Ticker ticker;
    // volatile: replaced on the store's writer thread, read by metric scrapes.
    private volatile Latest latest;
    // All three guarded by this: publications come from the store's one writer, but a replaced observer may hand over
    // to a new writer thread; the lock keeps the registrations consistent across such a change.
    private boolean snapshotAgeRegistered;
    private final Map<String, Meter> aliveGauges = new HashMap<>();
    private final Map<String, Meter> lastSuccessAgeGauges = new HashMap<>();
    private List<String> aliveTags = List.of();
    private List<String> lastSuccessTags = List.of();

    /**
     * Starts listening to {@code store}; created before the observer starts, so it sees every publication.
     *
     * @param clock wall clock, against which the last success time is aged
     * @param ticker the store's ticker, against which the publication time is aged
     */
    @Autowired
    ObservationGauges(ObservationStore store, VerdictKeeper verdicts, MeterRegistry registry, Clock clock,
            Ticker ticker) {
        this(store, verdicts::board, registry, clock, ticker);
    }

    /** @param board the verdicts, for Xray's {@code alive} rule (false while passively unhealthy) */
    ObservationGauges(ObservationStore store, Supplier<HealthBoard> board, MeterRegistry registry, Clock clock,
            Ticker ticker) {
        this.board = board;
        this.registry = registry;
        this.clock = clock;
        this.ticker = ticker;
        store.addListener(this::onPublish);
    }

    /**
     * Keeps the publication for the next scrape and follows the set of outbounds; one pass over the statuses, and the
     * gauges are touched only when the outbounds (or those with a success) differ from the last publication.
     */
    private synchronized void onPublish(Publication publication) {
        List<OutboundStatus> statuses = publication.observation().statuses();
        latest = new Latest(publication.publishedAtNanos(), statuses);
        if (!snapshotAgeRegistered) {
            TimeGauge.builder(SNAPSHOT_AGE, this, TimeUnit.NANOSECONDS, ObservationGauges::snapshotAgeNanos)
                    .description("Time since the observer last published a snapshot")
                    .register(registry);
            snapshotAgeRegistered = true;
        }
        List<String> tags = new ArrayList<>(statuses.size());
        List<String> succeededOnce = new ArrayList<>();
        for (OutboundStatus status : statuses) {
            tags.add(status.tag());
            if (status.lastSeen() != null) {
                succeededOnce.add(status.tag());
            }
        }
        if (!tags.equals(aliveTags)) {
            aliveTags = tags;
            follow(aliveGauges, Set.copyOf(tags), tag -> Gauge.builder(ALIVE, this, gauges -> gauges.alive(tag))
                    .description("1 when the outbound is alive, 0 when not")
                    .tag("outbound", tag)
                    .register(registry));
        }
        if (!succeededOnce.equals(lastSuccessTags)) {
            lastSuccessTags = succeededOnce;
            follow(lastSuccessAgeGauges, Set.copyOf(succeededOnce), tag -> TimeGauge
                    .builder(LAST_SUCCESS_AGE, this, TimeUnit.NANOSECONDS, gauges -> gauges.lastSuccessAgeNanos(tag))
                    .description("Time since the outbound's last successful probe")
                    .tag("outbound", tag)
                    .register(registry));
        }
    }

    /** Removes the gauges of tags no longer wanted and registers those of new ones. */
    private void follow(Map<String, Meter> gauges, Set<String> wanted, Function<String, Meter> register) {
        gauges.entrySet().removeIf(gauge -> {
            boolean gone = !wanted.contains(gauge.getKey());
            if (gone) {
                registry.remove(gauge.getValue());
            }
            return gone;
        });
        for (String tag : wanted) {
            gauges.computeIfAbsent(tag, register);
        }
    }

    private double snapshotAgeNanos() {
        return ticker.nanoTime() - latest.publishedAtNanos();
    }

    private double alive(String tag) {
        OutboundStatus status = latest.status(tag);
        if (status == null) {
            return Double.NaN;
        }
        return board.get().xrayAlive(status) ? 1 : 0;
    }

    private double lastSuccessAgeNanos(String tag) {
        OutboundStatus status = latest.status(tag);
        if (status == null || status.lastSeen() == null) {
            return Double.NaN;
        }
        return Duration.between(status.lastSeen(), clock.instant()).toNanos();
    }

    /**
     * The latest publication as the gauges read it: when, and the statuses, indexed by tag at the first read after the
     * publication (a scrape), not on the writer thread.
     */
    private static final class Latest {

        private final long publishedAtNanos;
        private final List<OutboundStatus> statuses;
        // volatile: built by the first scrape reading it; a second scrape racing it builds the same map.
        private volatile Map<String, OutboundStatus> byTag;

        Latest(long publishedAtNanos, List<OutboundStatus> statuses) {
            this.publishedAtNanos = publishedAtNanos;
            this.statuses = statuses;
        }

        long publishedAtNanos() {
            return publishedAtNanos;
        }

        OutboundStatus status(String tag) {
            Map<String, OutboundStatus> index = byTag;
            if (index == null) {
                index = statuses.stream().collect(Collectors.toUnmodifiableMap(OutboundStatus::tag,
                        Function.identity()));
                byTag = index;
            }
            return index.get(tag);
        }
    }
}
