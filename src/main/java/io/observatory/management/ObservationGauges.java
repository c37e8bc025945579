package io.observatory.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.observatory.status.ObservationStore;
import io.observatory.status.ObservationStore.Publication;
import io.observatory.status.OutboundStatus;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Gauges read from the published observation; the per-outbound ones follow the outbounds in the latest snapshot
 * (registered when an outbound appears, removed when it leaves), so their number stays bounded:
 * <ul>
 *   <li>{@value #ALIVE} (tag {@code outbound}): 1 when the outbound is alive, 0 when not;
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

    /**
     * Starts listening to {@code store}; created before the observer starts, so it sees every publication.
     *
     * @param clock wall clock, against which the last success time is aged
     * @param ticker the store's ticker, against which the publication time is aged
     */
    ObservationGauges(ObservationStore store, MeterRegistry registry, Clock clock, Ticker ticker) {
        this.registry = registry;
        this.clock = clock;
        this.ticker = ticker;
        store.addListener(this::onPublish);
    }

    private synchronized void onPublish(Publication publication) {
        Map<String, OutboundStatus> statuses = publication.observation().statuses().stream()
                .collect(Collectors.toUnmodifiableMap(OutboundStatus::tag, Function.identity()));
        latest = new Latest(publication.publishedAtNanos(), statuses);
        if (!snapshotAgeRegistered) {
            TimeGauge.builder(SNAPSHOT_AGE, this, TimeUnit.NANOSECONDS, ObservationGauges::snapshotAgeNanos)
                    .description("Time since the observer last published a snapshot")
                    .register(registry);
            snapshotAgeRegistered = true;
        }
        follow(aliveGauges, statuses.keySet(), tag -> Gauge.builder(ALIVE, this, gauges -> gauges.alive(tag))
                .description("1 when the outbound is alive, 0 when not")
                .tag("outbound", tag)
                .register(registry));
        Set<String> succeededOnce = statuses.values().stream()
                .filter(status -> status.lastSeen() != null)
                .map(OutboundStatus::tag)
                .collect(Collectors.toUnmodifiableSet());
        follow(lastSuccessAgeGauges, succeededOnce, tag -> TimeGauge
                .builder(LAST_SUCCESS_AGE, this, TimeUnit.NANOSECONDS, gauges -> gauges.lastSuccessAgeNanos(tag))
                .description("Time since the outbound's last successful probe")
                .tag("outbound", tag)
                .register(registry));
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
        OutboundStatus status = latest.statuses().get(tag);
        if (status == null) {
            return Double.NaN;
        }
        return status.alive() ? 1 : 0;
    }

    private double lastSuccessAgeNanos(String tag) {
        OutboundStatus status = latest.statuses().get(tag);
        if (status == null || status.lastSeen() == null) {
            return Double.NaN;
        }
        return Duration.between(status.lastSeen(), clock.instant()).toNanos();
    }

    /** The latest publication as the gauges read it: when, and the statuses by tag. */
    private record Latest(long publishedAtNanos, Map<String, OutboundStatus> statuses) {}
}
