package io.observatory.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeHeaders;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.probe.ReactorNettyProber;
import io.observatory.testing.ExternalCommand;
import io.observatory.testing.TestTarget;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

/**
 * A measurement, not a timed test: the RTT the real {@link ReactorNettyProber} reports for a plain-HTTP probe next
 * to curl's {@code time_starttransfer} for the same request on the same path, for two paths: directly to the local
 * test target, and through the real microsocks that {@code .ci/run} starts (the connect to the proxy, the SOCKS5
 * handshake with RFC 1929 authentication, the proxy's dial of the target and the first byte of the response). It
 * prints, per path on one line, both medians, their difference and each client's connect and first-byte medians, and
 * asserts only that every request succeeded and the medians are plausible.
 *
 * <p>The clients and the paths take turns, so all four see the same machine load. Both clients warm up first,
 * unrecorded: curl with one request per path (page cache), the prober as a long-running service is, with its probe
 * path loaded and compiled: {@value #WARM_UP_PROBES} probes per path, paths taking turns (a service probing 100
 * outbounds every 10 s makes as many in five minutes). A few hundred were not enough: the JIT compiler was still at
 * work during the measured runs, taking a core from both clients, and ours ran its SOCKS5 handshake in code not yet
 * compiled (+0.05 to +0.5 ms against curl through microsocks, against −0.1 ms after 3,000). The line also prints how
 * long the JIT compiler worked during the measured runs.
 */
class RttComparisonInteropIT {

    private static final int RUNS = 50;
    private static final int WARM_UP_PROBES = 3_000;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration CURL_LIMIT = Duration.ofSeconds(15);
    private static final double PLAUSIBLE_MEDIAN_MILLIS = 1_000;

    private static final TestTarget TARGET = TestTarget.http();
    private static final LoopResources LOOPS = LoopResources.create("rtt-comparison", 1, true);
    private static final ReactorNettyProber PROBER = new ReactorNettyProber(
            new ProbeSettings(1, null, Map.of(), null),
            ProbeHeaders.of(Map.of(), 150),
            LOOPS,
            Clock.systemUTC(),
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
    void rttWhenObservatoryAndCurlProbeDirectAndThroughMicrosocksThenMediansPrintedAndPlausible() throws Exception {
        RealProxies.Endpoint socks = proxies.socks();
        List<Path> paths = List.of(
                new Path("direct", Outbound.direct("direct"), TARGET.url("/generate_204"), List.of()),
                new Path(
                        "microsocks+auth",
                        new Outbound(
                                "real_socks",
                                Protocol.SOCKS,
                                "127.0.0.1",
                                socks.port(),
                                socks.username(),
                                socks.password(),
                                null),
                        TARGET.urlWithHost("localhost", "/generate_204"),
                        List.of(
                                "--socks5-hostname",
                                socks.username() + ":" + socks.password() + "@127.0.0.1:" + socks.port())));
        for (int i = 0; i < WARM_UP_PROBES; i++) {
            for (Path path : paths) {
                path.observatory();
            }
        }
        for (Path path : paths) {
            path.curl();
        }
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        assertThat(compiler).as("a JIT compiler").isNotNull();
        assertThat(compiler.isCompilationTimeMonitoringSupported())
                .as("JIT compilation time monitored")
                .isTrue();
        long compiledBefore = compiler.getTotalCompilationTime();
        List<Samples> observatory = paths.stream().map(path -> new Samples()).toList();
        List<Samples> curl = paths.stream().map(path -> new Samples()).toList();

        for (int run = 0; run < RUNS; run++) {
            for (int p = 0; p < paths.size(); p++) {
                observatory.get(p).add(paths.get(p).observatory());
                curl.get(p).add(paths.get(p).curl());
            }
        }
        System.out.printf(
                Locale.ROOT,
                "RTT runs after %d warm-up probes per path; JIT compilation during the runs:" + " %d ms%n",
                WARM_UP_PROBES,
                compiler.getTotalCompilationTime() - compiledBefore);
        for (int p = 0; p < paths.size(); p++) {
            Samples ours = observatory.get(p);
            Samples theirs = curl.get(p);
            System.out.printf(
                    Locale.ROOT,
                    "RTT median over %d, %s: observatory %.3f ms (connect %.3f, first byte"
                            + " %.3f), curl time_starttransfer %.3f ms (time_connect %.3f, starttransfer-pretransfer"
                            + " %.3f), difference %+.3f ms%n",
                    RUNS,
                    paths.get(p).name(),
                    ours.median(Sample::rtt),
                    ours.median(Sample::connect),
                    ours.median(Sample::firstByte),
                    theirs.median(Sample::rtt),
                    theirs.median(Sample::connect),
                    theirs.median(Sample::firstByte),
                    ours.median(Sample::rtt) - theirs.median(Sample::rtt));
        }

        assertThat(TARGET.requestCount("/generate_204")).isEqualTo(paths.size() * (2 * RUNS + WARM_UP_PROBES + 1));
        for (int p = 0; p < paths.size(); p++) {
            assertThat(observatory.get(p).median(Sample::rtt)).isPositive().isLessThan(PLAUSIBLE_MEDIAN_MILLIS);
            assertThat(curl.get(p).median(Sample::rtt)).isPositive().isLessThan(PLAUSIBLE_MEDIAN_MILLIS);
        }
    }

    /**
     * One path to the target, as each client takes it.
     *
     * @param name how the printed line names it
     * @param outbound the prober's outbound
     * @param url the probe URL
     * @param curlProxy curl's options for the same proxy, empty for none
     */
    private record Path(String name, Outbound outbound, String url, List<String> curlProxy) {

        /** One probe; returns the prober's RTT, connect and first-byte phases in milliseconds. */
        Sample observatory() {
            ProbeResult result = PROBER.probe(new ProbeRequest(
                            outbound, URI.create(url), "GET", PROBE_TIMEOUT, ProbeRequest.Client.STANDARD_OBSERVER))
                    .block(PROBE_TIMEOUT.plusSeconds(5));

            assertThat(result).isNotNull();
            assertThat(result.success()).as("%s", result.error()).isTrue();
            assertThat(result.httpStatus()).isEqualTo(204);
            ProbePhases phases = result.phases();
            return new Sample(result.rttNanos() / 1e6, phases.connectNanos() / 1e6, phases.firstByteNanos() / 1e6);
        }

        /**
         * One curl request (through a proxy, with the host name resolved by the proxy); returns its
         * {@code time_starttransfer}, {@code time_connect} and the span from {@code time_pretransfer} to
         * {@code time_starttransfer} in milliseconds.
         */
        Sample curl() throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of(
                    "curl",
                    "-s",
                    "-o",
                    "/dev/null",
                    "--max-time",
                    "5",
                    "-w",
                    "%{http_code} %{time_starttransfer} %{time_connect} %{time_pretransfer}"));
            command.addAll(curlProxy);
            command.add(url);
            String output = ExternalCommand.run(CURL_LIMIT, command);

            String[] fields = output.strip().split(" ");
            assertThat(fields).as("curl -w output %s", output).hasSize(4);
            assertThat(fields[0]).as("HTTP status seen by curl").isEqualTo("204");
            double startTransfer = Double.parseDouble(fields[1]) * 1_000;
            double preTransfer = Double.parseDouble(fields[3]) * 1_000;
            return new Sample(startTransfer, Double.parseDouble(fields[2]) * 1_000, startTransfer - preTransfer);
        }
    }

    /** One request's RTT, connect and first-byte times in milliseconds. */
    private record Sample(double rtt, double connect, double firstByte) {}

    /** One client's samples on one path. */
    private static final class Samples {

        private final List<Sample> samples = new ArrayList<>();

        void add(Sample sample) {
            samples.add(sample);
        }

        double median(ToDoubleFunction<Sample> field) {
            double[] sorted = samples.stream().mapToDouble(field).sorted().toArray();
            int middle = sorted.length / 2;
            return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        }
    }
}
