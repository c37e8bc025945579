package io.observatory.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeHeaders;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.probe.ReactorNettyProber;
import io.observatory.testing.TestTarget;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

/**
 * A measurement, not a timed test: the RTT the real {@link ReactorNettyProber} reports for a plain-HTTP probe through
 * the real microsocks that {@code .ci/run} starts, next to curl's {@code time_starttransfer} for the same request
 * through the same proxy (both include the connect to the proxy, the SOCKS5 handshake with RFC 1929 authentication,
 * the proxy's dial of the target and the first byte of the response). It prints both medians and their difference on
 * one line and asserts only that every request succeeded and both medians are plausible.
 *
 * <p>The two clients take turns, so both see the same machine load. Both warm up first, unrecorded: the prober with
 * {@value #WARM_UP_PROBES} probes, as a long-running service is (class loading and JIT compilation of the probe
 * path), curl with one request (page cache).
 */
class RttComparisonInteropIT {

    private static final int RUNS = 20;
    private static final int WARM_UP_PROBES = 300;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CURL_LIMIT = Duration.ofSeconds(15);
    private static final double PLAUSIBLE_MEDIAN_MILLIS = 1_000;

    private static final TestTarget TARGET = TestTarget.http();
    private static final LoopResources LOOPS = LoopResources.create("rtt-comparison", 1, true);
    private static final ReactorNettyProber PROBER = new ReactorNettyProber(
            new ProbeSettings(1, null, Map.of(), null), ProbeHeaders.of(Map.of(), 150), LOOPS, Clock.systemUTC(),
            Ticker.system());

    private static RealProxies proxies;

    @BeforeAll
    static void requireRealProxies() {
        proxies = RealProxies.fromSystemProperties();
    }

    @AfterAll
    static void stopLab() {
        TARGET.close();
        LOOPS.disposeLater().block(Duration.ofSeconds(5));
    }

    @Test
    void rttWhenObservatoryAndCurlProbeThroughMicrosocksThenBothMediansPrintedAndPlausible() throws Exception {
        String url = TARGET.urlWithHost("localhost", "/generate_204");
        for (int i = 0; i < WARM_UP_PROBES; i++) {
            observatoryRttMillis(url);
        }
        curlRttMillis(url);
        List<Double> observatory = new ArrayList<>();
        List<Double> curl = new ArrayList<>();

        for (int run = 0; run < RUNS; run++) {
            observatory.add(observatoryRttMillis(url));
            curl.add(curlRttMillis(url));
        }
        double observatoryMedian = median(observatory);
        double curlMedian = median(curl);
        System.out.printf(Locale.ROOT, "RTT median over %d: observatory %.3f ms, curl %.3f ms, difference %.3f ms%n",
                RUNS, observatoryMedian, curlMedian, observatoryMedian - curlMedian);

        assertThat(TARGET.requestCount("/generate_204")).isEqualTo(2 * RUNS + WARM_UP_PROBES + 1);
        assertThat(observatoryMedian).isPositive().isLessThan(PLAUSIBLE_MEDIAN_MILLIS);
        assertThat(curlMedian).isPositive().isLessThan(PLAUSIBLE_MEDIAN_MILLIS);
    }

    /** One probe through microsocks; returns the prober's RTT in milliseconds. */
    private static double observatoryRttMillis(String url) {
        RealProxies.Endpoint socks = proxies.socks();
        Outbound outbound = new Outbound("real_socks", Protocol.SOCKS, "127.0.0.1", socks.port(), socks.username(),
                socks.password(), null);
        ProbeResult result = PROBER.probe(new ProbeRequest(outbound, URI.create(url), "GET", PROBE_TIMEOUT,
                ProbeRequest.Client.STANDARD_OBSERVER))
                .block(PROBE_TIMEOUT.plusSeconds(5));

        assertThat(result).isNotNull();
        assertThat(result.success()).as("%s", result.error()).isTrue();
        assertThat(result.httpStatus()).isEqualTo(204);
        return result.rttNanos() / 1e6;
    }

    /** One curl request through microsocks (host name resolved by the proxy); returns its time to first byte in ms. */
    private static double curlRttMillis(String url) throws IOException, InterruptedException {
        RealProxies.Endpoint socks = proxies.socks();
        String output = ExternalProgram.run(CURL_LIMIT, List.of("curl", "-s", "-o", "/dev/null", "--max-time", "5",
                "-w", "%{http_code} %{time_starttransfer}",
                "--socks5-hostname", socks.username() + ":" + socks.password() + "@127.0.0.1:" + socks.port(), url));

        String[] codeAndSeconds = output.strip().split(" ");
        assertThat(codeAndSeconds).as("curl -w output %s", output).hasSize(2);
        assertThat(codeAndSeconds[0]).as("HTTP status seen by curl").isEqualTo("204");
        return Double.parseDouble(codeAndSeconds[1]) * 1_000;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
