package io.observatory.management;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.observatory.observer.ProbeRecorder;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Records every completed probe an observer keeps in Micrometer, tagged by the outbound's tag and bounded enums only
 * (never a reason or a URL):
 * <ul>
 *   <li>{@value #RTT} (timer, seconds; tag {@code outbound}): the RTT of each successful probe;
 *   <li>{@value #PHASE} (timer, seconds; tags {@code outbound}, {@code phase} = {@code dns}, {@code connect},
 *       {@code proxy_handshake}, {@code tls} or {@code first_byte}): each measured phase of every probe;
 *   <li>{@value #RESULTS} (counter; tags {@code outbound}, {@code outcome} = {@code success} or {@code failure},
 *       {@code error_kind} = a {@link ProbeError.Kind#label()} or {@code none}): every probe.
 * </ul>
 * The timers publish fixed histogram buckets ({@link #BUCKETS}), so each outbound adds a bounded number of series
 * (about 20 meters for a probed outbound), and {@link #forget} removes them when it leaves the observation. Both run on
 * the writer, and the reload that removes an outbound also deselects it in the observer before a later probe result
 * runs, so a probe cannot re-create the meters of an outbound that has left.
 */
@Component
public final class ProbeMetrics implements ProbeRecorder {

    /** Probe RTT timer name; Prometheus shows {@code observatory_probe_rtt_seconds}. */
    public static final String RTT = "observatory.probe.rtt";
    /** Probe phase timer name; Prometheus shows {@code observatory_probe_phase_seconds}. */
    public static final String PHASE = "observatory.probe.phase";
    /** Probe result counter name; Prometheus shows {@code observatory_probe_results_total}. */
    public static final String RESULTS = "observatory.probe.results";

    /** Histogram bucket bounds of both timers: from loopback (1 ms) past the standard observer's 5 s deadline. */
    static final Duration[] BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private static final String NO_ERROR = "none";

    private final MeterRegistry registry;
    private final MeterProvider<Timer> rtt;
    private final MeterProvider<Timer> phase;
    private final MeterProvider<Counter> results;
    // Confined to the writer: the meters each outbound's probes created, so that forgetting it is exact.
    private final Map<String, Set<Meter>> metersByOutbound = new HashMap<>();

    /** @param registry where the meters are registered */
    public ProbeMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.rtt = Timer.builder(RTT)
                .description("Round-trip time of successful probes, first network operation to response")
                .serviceLevelObjectives(BUCKETS)
                .withRegistry(registry);
        this.phase = Timer.builder(PHASE)
                .description("Duration of each measured phase of a probe")
                .serviceLevelObjectives(BUCKETS)
                .withRegistry(registry);
        this.results = Counter.builder(RESULTS)
                .description("Completed probes by outcome and error kind")
                .withRegistry(registry);
    }

    @Override
    public void record(ProbeResult result) {
        Set<Meter> meters = metersByOutbound.computeIfAbsent(result.outboundTag(), tag -> new HashSet<>());
        Tags outbound = Tags.of("outbound", result.outboundTag());
        if (result.success()) {
            Timer timer = rtt.withTags(outbound);
            timer.record(result.rttNanos(), TimeUnit.NANOSECONDS);
            meters.add(timer);
        }
        result.phases().measured().forEach((name, nanos) -> {
            Timer timer = phase.withTags(outbound.and("phase", name));
            timer.record(nanos, TimeUnit.NANOSECONDS);
            meters.add(timer);
        });
        ProbeError error = result.error();
        Counter counter = results.withTags(outbound.and(
                "outcome", error == null ? "success" : "failure",
                "error_kind", error == null ? NO_ERROR : error.kind().label()));
        counter.increment();
        meters.add(counter);
    }

    /** Removes every probe meter of the outbound {@code tag}; writer only. */
    void forget(String tag) {
        Set<Meter> meters = metersByOutbound.remove(tag);
        if (meters != null) {
            meters.forEach(registry::remove);
        }
    }
}
