package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.observatory.config.Outbound;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class MeteredProberTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final ProbePhases PHASES =
            new ProbePhases(ProbePhases.NOT_MEASURED, 2_000_000, ProbePhases.NOT_MEASURED, 7_000_000, 11_000_000);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static ProbeRequest request(String tag) {
        return new ProbeRequest(Outbound.direct(tag), URI.create("http://127.0.0.1:1/generate_204"), "GET",
                Duration.ofSeconds(5), false);
    }

    private static ProbeResult success(String tag, long rttNanos) {
        return new ProbeResult(tag, true, rttNanos, PHASES, 204, T0, T0, null);
    }

    private static ProbeResult failure(String tag, ProbeError.Kind kind) {
        return new ProbeResult(tag, false, 5_000_000_000L, ProbePhases.NONE, 0, T0, T0,
                new ProbeError(kind, ProbeError.Hop.TARGET, "outbound " + tag + ": failed", null));
    }

    private ProbeResult probe(ProbeResult answer) {
        return new MeteredProber(request -> Mono.just(answer), registry).probe(request(answer.outboundTag())).block();
    }

    @Test
    void probeWhenSuccessThenRttRecordedInSecondsForTheOutbound() {
        ProbeResult answer = success("proxy_de", 20_000_000);

        ProbeResult result = probe(answer);

        assertThat(result).isSameAs(answer);
        Timer rtt = registry.get("observatory.probe.rtt").tag("outbound", "proxy_de").timer();
        assertThat(rtt.count()).isEqualTo(1);
        assertThat(rtt.totalTime(TimeUnit.SECONDS)).isEqualTo(0.02);
        assertThat(rtt.getId().getTags()).hasSize(1);
    }

    @Test
    void probeWhenSuccessThenEachMeasuredPhaseRecordedAndOthersNot() {
        probe(success("proxy_de", 20_000_000));

        assertThat(registry.get("observatory.probe.phase").tags("outbound", "proxy_de", "phase", "connect").timer()
                .totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2);
        assertThat(registry.get("observatory.probe.phase").tags("outbound", "proxy_de", "phase", "tls").timer()
                .totalTime(TimeUnit.MILLISECONDS)).isEqualTo(7);
        assertThat(registry.get("observatory.probe.phase").tags("outbound", "proxy_de", "phase", "first_byte").timer()
                .totalTime(TimeUnit.MILLISECONDS)).isEqualTo(11);
        assertThat(registry.find("observatory.probe.phase").tag("phase", "dns").timers()).isEmpty();
        assertThat(registry.find("observatory.probe.phase").tag("phase", "proxy_handshake").timers()).isEmpty();
    }

    @Test
    void probeWhenResultsVaryThenCountedByOutcomeAndErrorKind() {
        probe(success("proxy_de", 20_000_000));
        probe(success("proxy_de", 30_000_000));
        probe(failure("proxy_de", ProbeError.Kind.CONNECTION_REFUSED));

        assertThat(results("proxy_de", "success", "none").count()).isEqualTo(2);
        assertThat(results("proxy_de", "failure", "connection_refused").count()).isEqualTo(1);
    }

    @Test
    void probeWhenFailureThenNoRttRecorded() {
        probe(failure("proxy_us", ProbeError.Kind.RESPONSE_TIMEOUT));

        assertThat(registry.find("observatory.probe.rtt").timers()).isEmpty();
        assertThat(results("proxy_us", "failure", "response_timeout").count()).isEqualTo(1);
    }

    @Test
    void probeWhenCancelledBeforeItCompletesThenNothingRecorded() {
        MeteredProber prober = new MeteredProber(request -> Mono.never(), registry);

        prober.probe(request("proxy_de")).subscribe().dispose();

        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void probeThenTimersPublishTheFixedBuckets() {
        probe(success("proxy_de", 20_000_000));

        Timer rtt = registry.get("observatory.probe.rtt").timer();
        assertThat(rtt.takeSnapshot().histogramCounts()).hasSize(MeteredProber.BUCKETS.length);
    }

    private Counter results(String outbound, String outcome, String errorKind) {
        return registry.get("observatory.probe.results")
                .tags("outbound", outbound, "outcome", outcome, "error_kind", errorKind)
                .counter();
    }
}
