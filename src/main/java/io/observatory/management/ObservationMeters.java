package io.observatory.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.springframework.stereotype.Component;

/**
 * The per-outbound gauges, registered and removed by the observation's change events (on the writer), so that their
 * number follows the outbounds; values are read from the current observation at each scrape:
 * <ul>
 *   <li>{@value #VERDICT} (tag {@code outbound}), one per configured outbound: its combined verdict, 1 healthy,
 *       0.5 degraded, 0 unknown, -1 unhealthy, so {@code observatory_outbound_verdict < 0} lists the outbounds
 *       balancers avoid;
 *   <li>{@value #ALIVE} (tag {@code outbound}), one per observed outbound: 1 when alive, 0 when not (Xray's
 *       {@code alive} as the gRPC API reports it: false while passive health says unhealthy);
 *   <li>{@value #LAST_SUCCESS_AGE} (seconds, tag {@code outbound}): time since the outbound's last successful probe,
 *       for observed outbounds that have one (the standard observer's {@code last_seen_time});
 *   <li>{@value #SNAPSHOT_AGE} (seconds): time since the observer last published its statuses; absent before the
 *       first;
 *   <li>{@value #AVAILABILITY_PANIC}: 1 when the availability policy is in panic for a selection of every outbound
 *       (what {@code ListAvailable} without a tag prefix answers with {@code panic}), 0 when not.
 * </ul>
 * An outbound that leaves the observation (deselected or removed) also loses its probe meters ({@link ProbeMetrics}).
 * Costs up to three gauges per outbound and two in all; the panic gauge runs the availability policy over every
 * outbound at each scrape (one pass, well under a millisecond at 10,000 outbounds).
 */
@Component
class ObservationMeters {

    /** Verdict gauge; Prometheus shows {@code observatory_outbound_verdict}. */
    static final String VERDICT = "observatory.outbound.verdict";
    /** Alive gauge; Prometheus shows {@code observatory_outbound_alive}. */
    static final String ALIVE = "observatory.outbound.alive";
    /** Time since last success; Prometheus shows {@code observatory_outbound_last_success_age_seconds}. */
    static final String LAST_SUCCESS_AGE = "observatory.outbound.last.success.age";
    /** Snapshot age; Prometheus shows {@code observatory_observation_age_seconds}. */
    static final String SNAPSHOT_AGE = "observatory.observation.age";
    /** Availability panic; Prometheus shows {@code observatory_availability_panic}. */
    static final String AVAILABILITY_PANIC = "observatory.availability.panic";

    private final ObservationStore store;
    private final MeterRegistry registry;
    private final ProbeMetrics probes;
    private final Clock clock;
    private final Ticker ticker;
    // Confined to the writer: the starting observation and every update arrive there.
    private final Map<String, Meter> verdicts = new HashMap<>();
    private final Map<String, Meter> alive = new HashMap<>();
    private final Map<String, Meter> lastSuccess = new HashMap<>();
    private boolean snapshotAgeRegistered;

    /**
     * Follows {@code store}; created before the observer starts, so it sees every outbound.
     *
     * @param clock  wall clock, against which the last success time is aged
     * @param ticker the writer's ticker, against which the observer's publication time is aged
     */
    ObservationMeters(ObservationStore store, MeterRegistry registry, ProbeMetrics probes, Clock clock, Ticker ticker) {
        this.store = store;
        this.registry = registry;
        this.probes = probes;
        this.clock = clock;
        this.ticker = ticker;
        store.watch(this::start, this::update);
    }

    private void start(Observation observation) {
        observation.all().forEach(this::follow);
        followSnapshotAge(observation);
        Gauge.builder(
                        AVAILABILITY_PANIC,
                        store,
                        current -> current.current().available(List.of()).panic() ? 1 : 0)
                .description("1 when the availability policy is in panic for a selection of every outbound")
                .register(registry);
    }

    private void update(ObservationUpdate update) {
        followSnapshotAge(update.observation());
        for (OutboundEvent event : update.events()) {
            if (event instanceof OutboundEvent.Removed) {
                remove(verdicts, event.tag());
                remove(alive, event.tag());
                remove(lastSuccess, event.tag());
                probes.forget(event.tag());
            } else if (event instanceof OutboundEvent.Updated updated) {
                if (updated.previous().probed() && !updated.now().probed()) {
                    probes.forget(event.tag());
                }
                follow(updated.now());
            } else if (event instanceof OutboundEvent.Added added) {
                follow(added.now());
            }
        }
    }

    /** Registers the gauges {@code outbound} has now and removes those it no longer has. */
    private void follow(OutboundHealth outbound) {
        String tag = outbound.tag();
        OutboundStatus probe = outbound.probe();
        verdicts.computeIfAbsent(
                tag,
                unused -> gauge(
                        VERDICT,
                        "Combined verdict of the outbound: 1 healthy, 0 " + "unknown, 0.5 degraded, -1 unhealthy",
                        tag,
                        entry -> verdictValue(entry.verdict())));
        if (probe == null) {
            remove(alive, tag);
        } else {
            alive.computeIfAbsent(
                    tag,
                    unused -> gauge(
                            ALIVE, "1 when the outbound is alive, 0 when not", tag, entry -> entry.alive() ? 1 : 0));
        }
        if (probe == null || probe.lastSeen() == null) {
            remove(lastSuccess, tag);
        } else {
            lastSuccess.computeIfAbsent(tag, this::lastSuccessAge);
        }
    }

    private Meter gauge(String name, String description, String tag, ToDoubleFunction<OutboundHealth> value) {
        return Gauge.builder(
                        name,
                        store,
                        current -> current.current()
                                .get(tag)
                                .map(value::applyAsDouble)
                                .orElse(Double.NaN))
                .description(description)
                .tag("outbound", tag)
                .register(registry);
    }

    private Meter lastSuccessAge(String tag) {
        return TimeGauge.builder(
                        LAST_SUCCESS_AGE,
                        store,
                        TimeUnit.NANOSECONDS,
                        current -> current.current()
                                .get(tag)
                                .map(OutboundHealth::probe)
                                .map(OutboundStatus::lastSeen)
                                .map(seen -> (double)
                                        Duration.between(seen, clock.instant()).toNanos())
                                .orElse(Double.NaN))
                .description("Time since the outbound's last successful probe")
                .tag("outbound", tag)
                .register(registry);
    }

    private void followSnapshotAge(Observation observation) {
        if (snapshotAgeRegistered || observation.observedAtNanos().isEmpty()) {
            return;
        }
        TimeGauge.builder(SNAPSHOT_AGE, store, TimeUnit.NANOSECONDS, current -> {
                    OptionalLong at = current.current().observedAtNanos();
                    return at.isPresent() ? ticker.nanoTime() - at.getAsLong() : Double.NaN;
                })
                .description("Time since the observer last published its statuses")
                .register(registry);
        snapshotAgeRegistered = true;
    }

    private void remove(Map<String, Meter> gauges, String tag) {
        Meter gauge = gauges.remove(tag);
        if (gauge != null) {
            registry.remove(gauge);
        }
    }

    private static double verdictValue(HealthState state) {
        return switch (state) {
            case HEALTHY -> 1;
            case DEGRADED -> 0.5;
            case UNKNOWN -> 0;
            case UNHEALTHY -> -1;
        };
    }
}
