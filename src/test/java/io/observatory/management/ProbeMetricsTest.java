package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.config.MetricsSettings;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProbeMetricsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final ProbePhases PHASES =
            new ProbePhases(ProbePhases.NOT_MEASURED, 2_000_000, ProbePhases.NOT_MEASURED, 7_000_000, 11_000_000);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeScheduler time = new FakeScheduler();
    private final ProbeMetrics metrics = new ProbeMetrics(registry, new MetricsSettings(List.of()), time.clock());

    private static ProbeResult success(String tag, long rttNanos) {
        return new ProbeResult(tag, true, rttNanos, PHASES, 204, T0, T0, null);
    }

    private static ProbeResult failure(String tag, ProbeError.Kind kind) {
        return new ProbeResult(
                tag,
                false,
                5_000_000_000L,
                ProbePhases.NONE,
                0,
                T0,
                T0,
                new ProbeError(kind, ProbeError.Hop.TARGET, "outbound " + tag + ": failed", null));
    }

    private Counter results(String outbound, String outcome, String errorKind) {
        return registry.get(ProbeMetrics.RESULTS)
                .tags("outbound", outbound, "outcome", outcome, "error_kind", errorKind)
                .counter();
    }

    private List<String> outboundsWithMeters() {
        return registry.getMeters().stream()
                .map(Meter::getId)
                .map(id -> id.getTag("outbound"))
                .filter(tag -> tag != null)
                .distinct()
                .sorted()
                .toList();
    }

    @Test
    void recordWhenTlsHandshakeBroughtACertificateThenDaysToExpiryFallWithTheClockAndGoNegative() {
        Instant notAfter = time.clock().instant().plus(Duration.ofDays(30));
        metrics.record(new ProbeResult("edge", true, 1_000_000, PHASES, 0, T0, T0, null, notAfter));

        Gauge expiry = registry.get(ProbeMetrics.CERTIFICATE_EXPIRY)
                .tag("outbound", "edge")
                .gauge();
        assertThat(expiry.value()).isEqualTo(30.0);
        time.advance(Duration.ofHours(36));
        assertThat(expiry.value()).isEqualTo(28.5);
        time.advance(Duration.ofDays(29));
        assertThat(expiry.value()).isEqualTo(-0.5);
        metrics.record(success("plain", 1_000_000));
        assertThat(registry.find(ProbeMetrics.CERTIFICATE_EXPIRY)
                        .tag("outbound", "plain")
                        .gauge())
                .as("no gauge for a probe without a certificate")
                .isNull();
    }

    @Test
    void recordWhenSuccessesThenOneRttHistogramForAllOutboundsAndTheLastRttPerOutbound() {
        metrics.record(success("proxy_de", 20_000_000));
        metrics.record(success("proxy_us", 30_000_000));
        metrics.record(success("proxy_de", 40_000_000));

        Timer rtt = registry.get(ProbeMetrics.RTT).timer();
        assertThat(rtt.count()).isEqualTo(3);
        assertThat(rtt.totalTime(TimeUnit.SECONDS)).isEqualTo(0.09);
        assertThat(rtt.getId().getTags()).isEmpty();
        assertThat(registry.get(ProbeMetrics.LAST_RTT)
                        .tag("outbound", "proxy_de")
                        .timeGauge()
                        .value(TimeUnit.SECONDS))
                .isEqualTo(0.04);
        assertThat(registry.get(ProbeMetrics.LAST_RTT)
                        .tag("outbound", "proxy_us")
                        .timeGauge()
                        .value(TimeUnit.SECONDS))
                .isEqualTo(0.03);
    }

    @Test
    void recordWhenOutboundHistogramsSelectedThenOnlyThoseOutboundsGetTheirOwnAndAReloadRemovesThem() {
        ProbeMetrics selective = new ProbeMetrics(registry, new MetricsSettings(List.of("proxy_d")), time.clock());
        selective.record(success("proxy_de", 20_000_000));
        selective.record(success("proxy_de", 40_000_000));
        selective.record(failure("proxy_de", ProbeError.Kind.CONNECTION_REFUSED));
        selective.record(success("proxy_us", 30_000_000));

        Timer own = registry.get(ProbeMetrics.OUTBOUND_RTT)
                .tag("outbound", "proxy_de")
                .timer();
        assertThat(own.count()).as("successful probes only").isEqualTo(2);
        assertThat(own.totalTime(TimeUnit.SECONDS)).isEqualTo(0.06);
        assertThat(registry.find(ProbeMetrics.OUTBOUND_RTT)
                        .tag("outbound", "proxy_us")
                        .timers())
                .isEmpty();

        selective.reconfigure(Configs.of("metrics.outbound-histograms=proxy_u"));
        assertThat(registry.find(ProbeMetrics.OUTBOUND_RTT).timers())
                .as("deselected at once")
                .isEmpty();
        selective.record(success("proxy_us", 10_000_000));
        selective.record(success("proxy_de", 10_000_000));

        assertThat(registry.find(ProbeMetrics.OUTBOUND_RTT).timers())
                .extracting(t -> t.getId().getTag("outbound"))
                .containsExactly("proxy_us");
        selective.forget("proxy_us");
        assertThat(registry.find(ProbeMetrics.OUTBOUND_RTT).timers()).isEmpty();
    }

    @Test
    void recordWhenSuccessThenEachMeasuredPhaseRecordedAndOthersNot() {
        metrics.record(success("proxy_de", 20_000_000));

        assertThat(registry.get(ProbeMetrics.PHASE)
                        .tags("phase", "connect")
                        .timer()
                        .totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(2);
        assertThat(registry.get(ProbeMetrics.PHASE).tags("phase", "tls").timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(7);
        assertThat(registry.get(ProbeMetrics.LAST_PHASE)
                        .tags("outbound", "proxy_de", "phase", "first_byte")
                        .timeGauge()
                        .value(TimeUnit.MILLISECONDS))
                .isEqualTo(11);
        assertThat(registry.find(ProbeMetrics.PHASE).tag("phase", "dns").timers())
                .isEmpty();
        assertThat(registry.find(ProbeMetrics.LAST_PHASE)
                        .tag("phase", "proxy_handshake")
                        .timeGauges())
                .isEmpty();
    }

    @Test
    void recordWhenManyOutboundsThenAFixedSmallNumberOfSeriesEach() {
        for (int i = 0; i < 100; i++) {
            metrics.record(success("o" + i, 20_000_000));
            metrics.record(failure("o" + i, ProbeError.Kind.CONNECTION_REFUSED));
        }

        long perOutbound = registry.getMeters().stream()
                .filter(meter -> "o7".equals(meter.getId().getTag("outbound")))
                .count();
        assertThat(perOutbound).isEqualTo(1 + 3 + 2);
        assertThat(registry.find(ProbeMetrics.RTT).timers()).hasSize(1);
        assertThat(registry.find(ProbeMetrics.PHASE).timers()).hasSize(3);
    }

    @Test
    void recordWhenResultsVaryThenCountedByOutcomeAndErrorKind() {
        metrics.record(success("proxy_de", 20_000_000));
        metrics.record(success("proxy_de", 30_000_000));
        metrics.record(failure("proxy_de", ProbeError.Kind.CONNECTION_REFUSED));

        assertThat(results("proxy_de", "success", "none").count()).isEqualTo(2);
        assertThat(results("proxy_de", "failure", "connection_refused").count()).isEqualTo(1);
    }

    @Test
    void recordWhenFailureThenNoRttRecorded() {
        metrics.record(failure("proxy_us", ProbeError.Kind.RESPONSE_TIMEOUT));

        assertThat(registry.get(ProbeMetrics.RTT).timer().count()).isZero();
        assertThat(registry.find(ProbeMetrics.LAST_RTT).timeGauges()).isEmpty();
        assertThat(results("proxy_us", "failure", "response_timeout").count()).isEqualTo(1);
    }

    @Test
    void recordThenTimersPublishTheFixedBuckets() {
        metrics.record(success("proxy_de", 20_000_000));

        Timer rtt = registry.get(ProbeMetrics.RTT).timer();
        assertThat(rtt.takeSnapshot().histogramCounts()).hasSize(ProbeMetrics.BUCKETS.length);
    }

    @Test
    void forgetWhenOutboundLeavesThenAllItsProbeMetersVanishAndOthersStay() {
        metrics.record(success("a", 8_000_000));
        metrics.record(success("b", 8_000_000));
        metrics.record(failure("b", ProbeError.Kind.CONNECTION_RESET));
        registry.counter("jvm.other", "outbound", "b").increment();

        metrics.forget("b");

        assertThat(outboundsWithMeters()).containsExactly("a", "b");
        assertThat(registry.find(ProbeMetrics.LAST_RTT).tag("outbound", "b").timeGauges())
                .isEmpty();
        assertThat(registry.find(ProbeMetrics.LAST_PHASE).tag("outbound", "b").timeGauges())
                .isEmpty();
        assertThat(registry.find(ProbeMetrics.RESULTS).tag("outbound", "b").counters())
                .isEmpty();
        assertThat(registry.get(ProbeMetrics.RTT).timer().count()).isEqualTo(2);
        assertThat(registry.find("jvm.other").counters()).hasSize(1);
    }

    @Test
    void forgetWhenOutboundComesBackThenItsMetersStartAfresh() {
        metrics.record(success("b", 8_000_000));
        metrics.forget("b");

        metrics.record(success("b", 8_000_000));

        assertThat(results("b", "success", "none").count()).isEqualTo(1);
    }
}
