package io.observatory.probe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;

/**
 * A {@link Prober} decorator that records every completed probe in Micrometer, tagged by the outbound's tag and bounded
 * enums only (never a reason or a URL):
 * <ul>
 *   <li>{@value #RTT} (timer, seconds; tag {@code outbound}): the RTT of each successful probe;
 *   <li>{@value #PHASE} (timer, seconds; tags {@code outbound}, {@code phase} = {@code dns}, {@code connect},
 *       {@code proxy_handshake}, {@code tls} or {@code first_byte}): each measured phase of every probe;
 *   <li>{@value #RESULTS} (counter; tags {@code outbound}, {@code outcome} = {@code success} or {@code failure},
 *       {@code error_kind} = a {@link ProbeError.Kind#label()} or {@code none}): every probe.
 * </ul>
 * The timers publish fixed histogram buckets ({@link #BUCKETS}), so each outbound adds a bounded number of series.
 * A probe cancelled before it completes (the observer stopped) is not recorded.
 */
public final class MeteredProber implements Prober {

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

    private final Prober delegate;
    private final MeterProvider<Timer> rtt;
    private final MeterProvider<Timer> phase;
    private final MeterProvider<Counter> results;

    /**
     * @param delegate the prober that sends the probes
     * @param registry where the meters are registered
     */
    public MeteredProber(Prober delegate, MeterRegistry registry) {
        this.delegate = delegate;
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
    public Mono<ProbeResult> probe(ProbeRequest request) {
        return delegate.probe(request).doOnNext(this::record);
    }

    private void record(ProbeResult result) {
        Tags outbound = Tags.of("outbound", result.outboundTag());
        if (result.success()) {
            rtt.withTags(outbound).record(result.rttNanos(), TimeUnit.NANOSECONDS);
        }
        for (Map.Entry<String, Long> measured : result.phases().measured().entrySet()) {
            phase.withTags(outbound.and("phase", measured.getKey()))
                    .record(measured.getValue(), TimeUnit.NANOSECONDS);
        }
        results.withTags(outbound.and(
                        "outcome", result.success() ? "success" : "failure",
                        "error_kind", result.success() ? NO_ERROR : result.error().kind().label()))
                .increment();
    }
}
