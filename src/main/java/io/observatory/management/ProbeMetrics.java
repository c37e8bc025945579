package io.observatory.management;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.observatory.config.MetricsSettings;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.SubjectSelector;
import io.observatory.observer.ProbeRecorder;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeResult;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Records every completed probe an observer keeps in Micrometer, with a small fixed set of series per outbound
 * (blackbox_exporter's shape: the last value as a gauge) and the distributions across all outbounds, tagged by
 * bounded enums only (never a reason or a URL):
 * <ul>
 *   <li>{@value #RTT} (histogram, seconds; no tags): the RTT of every successful probe, all outbounds together;
 *   <li>{@value #PHASE} (histogram, seconds; tag {@code phase} = {@code dns}, {@code connect},
 *       {@code proxy_handshake}, {@code tls} or {@code first_byte}): each measured phase, all outbounds together;
 *   <li>{@value #LAST_RTT} (gauge, seconds; tag {@code outbound}): the RTT of the outbound's last successful probe;
 *   <li>{@value #LAST_PHASE} (gauge, seconds; tags {@code outbound}, {@code phase}): each phase of the outbound's
 *       last probe that measured it;
 *   <li>{@value #RESULTS} (counter; tags {@code outbound}, {@code outcome} = {@code success} or {@code failure},
 *       {@code error_kind} = a {@link ProbeError.Kind#label()} or {@code none}): every probe;
 *   <li>{@value #OUTBOUND_RTT} (histogram, seconds; tag {@code outbound}), only for the outbounds that
 *       {@code observatory.metrics.outbound-histograms} selects (none by default; 16 series each): the RTT of the
 *       outbound's successful probes. A reload that deselects an outbound removes its histogram;
 *   <li>{@value #CERTIFICATE_EXPIRY} (gauge, days; tag {@code outbound}), for {@code tls} outbounds once a handshake
 *       succeeded: the days until the server certificate of the last successful handshake expires, fractional and
 *       negative once it has (with {@code allow-insecure} the handshake succeeds on an expired certificate). Read
 *       at each scrape against the wall clock, so it falls by itself between probes.
 * </ul>
 * Per outbound that is at most 1 + 5 gauges and one counter per outcome and error kind seen (usually one to three),
 * and a 6-slot array: measured at 10,000 direct outbounds, 7 observatory series per outbound (with the verdict and
 * alive gauges), a 5.1 MB scrape, where per-outbound histograms made 52 series per outbound, a 41 MB scrape and
 * OutOfMemoryErrors at {@code -Xmx256m}. {@link #forget} removes an outbound's meters when
 * it leaves the observation. Recording runs on the writer, and the reload that removes an outbound also deselects it
 * in the observer before a later probe result runs, so a probe cannot re-create the meters of an outbound that has
 * left; scrapes read the last values from any thread.
 */
@Component
public final class ProbeMetrics implements ProbeRecorder, Reconfigurable {

    /** Probe RTT histogram name; Prometheus shows {@code observatory_probe_rtt_seconds}. */
    public static final String RTT = "observatory.probe.rtt";
    /** Probe phase histogram name; Prometheus shows {@code observatory_probe_phase_seconds}. */
    public static final String PHASE = "observatory.probe.phase";
    /** Last RTT gauge name; Prometheus shows {@code observatory_probe_last_rtt_seconds}. */
    public static final String LAST_RTT = "observatory.probe.last.rtt";
    /** Last phase gauge name; Prometheus shows {@code observatory_probe_last_phase_seconds}. */
    public static final String LAST_PHASE = "observatory.probe.last.phase";
    /** Probe result counter name; Prometheus shows {@code observatory_probe_results_total}. */
    public static final String RESULTS = "observatory.probe.results";
    /** Opt-in per-outbound RTT histogram name; Prometheus shows {@code observatory_probe_outbound_rtt_seconds}. */
    public static final String OUTBOUND_RTT = "observatory.probe.outbound.rtt";

    /** Certificate expiry gauge name; Prometheus shows {@code observatory_probe_certificate_expiry_days}. */
    public static final String CERTIFICATE_EXPIRY = "observatory.probe.certificate.expiry.days";

    private static final double MILLIS_PER_DAY = 86_400_000.0;

    /** Histogram bucket bounds of both timers: from loopback (1 ms) past the standard observer's 5 s deadline. */
    static final Duration[] BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)
    };

    private static final String NO_ERROR = "none";

    /** The phases in {@link Latest}'s slots 1 to 5; slot 0 is the RTT. */
    private static final List<String> PHASES = List.of("dns", "connect", "proxy_handshake", "tls", "first_byte");

    private final MeterRegistry registry;
    private final Clock clock;
    private final Timer rtt;
    private final MeterProvider<Timer> phase;
    private final MeterProvider<Counter> results;
    // Writer only: which outbounds get their own RTT histogram.
    private SubjectSelector histograms;
    // Confined to the writer: each outbound's last values and the meters its probes created, so that forgetting it
    // is exact.
    private final Map<String, Latest> latest = new HashMap<>();

    /**
     * @param registry where the meters are registered
     * @param config   the configuration at start-up: {@code observatory.metrics.outbound-histograms}
     */
    @Autowired
    public ProbeMetrics(MeterRegistry registry, ObservatoryConfig config, Clock clock) {
        this(registry, config.metrics(), clock);
    }

    /**
     * @param registry where the meters are registered
     * @param settings which outbounds get their own RTT histogram
     * @param clock    the wall clock the certificates' expiry is counted from
     */
    ProbeMetrics(MeterRegistry registry, MetricsSettings settings, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        this.histograms = new SubjectSelector(settings.outboundHistograms());
        this.rtt = Timer.builder(RTT)
                .description("Round-trip time of successful probes of all outbounds, first network operation to"
                        + " response")
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
        this.phase = Timer.builder(PHASE)
                .description("Duration of each measured phase of the probes of all outbounds")
                .serviceLevelObjectives(BUCKETS)
                .withRegistry(registry);
        this.results = Counter.builder(RESULTS)
                .description("Completed probes by outcome and error kind")
                .withRegistry(registry);
    }

    @Override
    public void record(ProbeResult result) {
        Latest last = latest.computeIfAbsent(result.outboundTag(), Latest::new);
        if (result.success()) {
            rtt.record(result.rttNanos(), TimeUnit.NANOSECONDS);
            if (histograms.selects(result.outboundTag())) {
                last.histogram().record(result.rttNanos(), TimeUnit.NANOSECONDS);
            }
            last.set(
                    0,
                    result.rttNanos(),
                    LAST_RTT,
                    "Round-trip time of the outbound's last successful probe",
                    Tags.empty());
        }
        Instant notAfter = result.certificateNotAfter();
        if (notAfter != null) {
            last.certificateExpires(notAfter);
        }
        result.phases().measured().forEach((name, nanos) -> {
            phase.withTags("phase", name).record(nanos, TimeUnit.NANOSECONDS);
            last.set(
                    1 + PHASES.indexOf(name),
                    nanos,
                    LAST_PHASE,
                    "Duration of each phase of the outbound's last" + " probe that measured it",
                    Tags.of("phase", name));
        });
        ProbeError error = result.error();
        Counter counter = results.withTags(Tags.of(
                "outbound",
                result.outboundTag(),
                "outcome",
                error == null ? "success" : "failure",
                "error_kind",
                error == null ? NO_ERROR : error.kind().label()));
        counter.increment();
        last.meters.add(counter);
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.PROBING;
    }

    /**
     * Follows a reload of {@code observatory.metrics.outbound-histograms}: the histograms of outbounds no longer
     * selected are removed at once; newly selected outbounds get theirs at their next successful probe. Writer only.
     */
    @Override
    public void reconfigure(ObservatoryConfig next) {
        histograms = new SubjectSelector(next.metrics().outboundHistograms());
        latest.values().forEach(last -> {
            if (last.histogram != null && !histograms.selects(last.outbound)) {
                last.meters.remove(last.histogram);
                registry.remove(last.histogram);
                last.histogram = null;
            }
        });
    }

    /** Removes every probe meter of the outbound {@code tag}; writer only. */
    void forget(String tag) {
        Latest last = latest.remove(tag);
        if (last != null) {
            last.meters.forEach(registry::remove);
        }
    }

    /** One outbound's last RTT and phases, nanoseconds, and the meters that show them; written on the writer. */
    private final class Latest {

        private final String outbound;
        // Slot 0 the RTT, 1-5 the phases in PHASES order; read by scrapes.
        private final AtomicLongArray nanos = new AtomicLongArray(1 + PHASES.size());
        private final Set<Meter> meters = new HashSet<>();
        private final boolean[] registered = new boolean[1 + PHASES.size()];
        private @Nullable Timer histogram;
        // Written on the writer, read by scrapes: the end of the last handshake's certificate, epoch milliseconds.
        private final AtomicLong notAfterMillis = new AtomicLong();
        private boolean expiryRegistered;

        Latest(String outbound) {
            this.outbound = outbound;
        }

        /** The outbound's own RTT histogram, registered the first time. */
        Timer histogram() {
            if (histogram == null) {
                histogram = Timer.builder(OUTBOUND_RTT)
                        .description("Round-trip time of the outbound's successful probes (opt-in per outbound)")
                        .serviceLevelObjectives(BUCKETS)
                        .tag("outbound", outbound)
                        .register(registry);
                meters.add(histogram);
            }
            return histogram;
        }

        /** Takes the certificate's end of validity and registers the expiry gauge the first time. */
        void certificateExpires(Instant notAfter) {
            notAfterMillis.set(notAfter.toEpochMilli());
            if (!expiryRegistered) {
                expiryRegistered = true;
                meters.add(Gauge.builder(
                                CERTIFICATE_EXPIRY,
                                notAfterMillis,
                                millis -> (millis.get() - clock.millis()) / MILLIS_PER_DAY)
                        .description("Days until the server certificate of the outbound's last successful TLS handshake"
                                + " expires (negative once it has)")
                        .baseUnit("days")
                        .tags("outbound", outbound)
                        .register(registry));
            }
        }

        /** Sets slot {@code slot} and registers its gauge the first time. */
        void set(int slot, long value, String name, String description, Tags tags) {
            nanos.set(slot, value);
            if (!registered[slot]) {
                registered[slot] = true;
                meters.add(TimeGauge.builder(name, nanos, TimeUnit.NANOSECONDS, array -> array.get(slot))
                        .description(description)
                        .tags(tags.and("outbound", outbound))
                        .register(registry));
            }
        }
    }
}
