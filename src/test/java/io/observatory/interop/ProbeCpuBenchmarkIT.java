package io.observatory.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeHeaders;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.probe.ReactorNettyProber;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

/**
 * A measurement, not a timed test: the CPU time one proxied probe costs the real {@link ReactorNettyProber} next to
 * what it costs prometheus-blackbox-exporter, both probing the same nginx through the same microsocks (the one
 * {@code .ci/run} starts, RFC 1929 authentication) with a fresh connection per probe. The test starts nginx
 * ({@code return 204}) and blackbox_exporter ({@code proxy_url: socks5://…}) itself on free {@code 127.0.0.1} ports
 * and stops them at the end.
 *
 * <p>CPU per probe is the process's user plus system CPU time over {@value #ROUNDS} rounds of {@value #PROBES}
 * sequential probes divided by the probes, the two taking turns round by round so both see the same machine load.
 * For blackbox_exporter that includes serving the {@code /probe} request that triggers each probe (its only way to
 * probe); for this JVM it includes the JIT compiler threads, printed apart because a long-running service stops
 * compiling (the prober warms up with {@value #WARM_UP_PROBES} probes first). Neither side's idle CPU is subtracted:
 * both are idle between probes only for the microseconds of the driving loop. It prints one line and asserts only
 * that every probe succeeded.
 */
class ProbeCpuBenchmarkIT {

    private static final int WARM_UP_PROBES = 20_000;
    private static final int ROUNDS = 3;
    private static final int PROBES = 1_000;
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    private static final LoopResources LOOPS = LoopResources.create("cpu-benchmark", 1, true);
    private static final ReactorNettyProber PROBER = new ReactorNettyProber(
            new ProbeSettings(1, null, Map.of(), null),
            ProbeHeaders.of(Map.of(), 150),
            LOOPS,
            Clock.systemUTC(),
            Ticker.system());
    private static final HttpClient DRIVER = HttpClient.newHttpClient();

    private static Path workdir;
    private static LoopbackDaemon nginx;
    private static LoopbackDaemon blackbox;
    private static int nginxPort;
    private static int blackboxPort;
    private static RealProxies.Endpoint socks;

    @BeforeAll
    static void startNginxAndBlackboxExporter() throws IOException {
        socks = RealProxies.fromSystemProperties().socks();
        workdir = Files.createTempDirectory("probe-cpu-benchmark-");
        nginxPort = LoopbackDaemon.freePort();
        nginx = LoopbackDaemon.nginx(workdir, nginxPort, "location = /generate_204 { return 204; }");

        blackboxPort = LoopbackDaemon.freePort();
        Files.writeString(
                workdir.resolve("blackbox.yml"), """
                modules:
                  socks:
                    prober: http
                    timeout: 5s
                    http:
                      proxy_url: socks5://%s:%s@127.0.0.1:%d
                      valid_status_codes: [204]
                      preferred_ip_protocol: ip4
                """.formatted(socks.username(), socks.password(), socks.port()));
        blackbox = LoopbackDaemon.start(
                "prometheus-blackbox-exporter",
                List.of(
                        "prometheus-blackbox-exporter",
                        "--config.file=" + workdir.resolve("blackbox.yml"),
                        "--web.listen-address=127.0.0.1:" + blackboxPort),
                blackboxPort,
                workdir.resolve("blackbox.out"));
    }

    @AfterAll
    static void stopLab() throws IOException {
        if (blackbox != null) {
            blackbox.close();
        }
        if (nginx != null) {
            nginx.close();
        }
        LOOPS.disposeLater().block(Duration.ofSeconds(5));
        if (workdir != null) {
            try (Stream<Path> files = Files.walk(workdir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    @Test
    void cpuPerProbeWhenObservatoryAndBlackboxExporterProbeThroughMicrosocksThenBothPrinted() throws Exception {
        String target = "http://localhost:" + nginxPort + "/generate_204";
        ProbeRequest request = new ProbeRequest(
                new Outbound(
                        "real_socks",
                        Protocol.SOCKS,
                        "127.0.0.1",
                        socks.port(),
                        socks.username(),
                        socks.password(),
                        null),
                URI.create(target),
                "GET",
                PROBE_TIMEOUT,
                ProbeRequest.Client.STANDARD_OBSERVER);
        HttpRequest blackboxProbe = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + blackboxPort + "/probe?module=socks&target=" + target))
                .timeout(PROBE_TIMEOUT)
                .build();
        for (int i = 0; i < WARM_UP_PROBES; i++) {
            observatoryProbe(request);
        }
        for (int i = 0; i < PROBES / 10; i++) {
            blackboxProbe(blackboxProbe);
        }
        JvmCpu ours = new JvmCpu();
        long blackboxNanos = 0;

        for (int round = 0; round < ROUNDS; round++) {
            ours.start();
            for (int i = 0; i < PROBES; i++) {
                observatoryProbe(request);
            }
            ours.stop();
            long before = blackbox.cpuNanos();
            for (int i = 0; i < PROBES; i++) {
                blackboxProbe(blackboxProbe);
            }
            blackboxNanos += blackbox.cpuNanos() - before;
        }
        int probes = ROUNDS * PROBES;
        double oursMicros = ours.totalNanos() / 1e3 / probes;
        double oursWithoutJitMicros = (ours.totalNanos() - ours.compilerNanos()) / 1e3 / probes;
        double blackboxMicros = blackboxNanos / 1e3 / probes;
        System.out.printf(
                Locale.ROOT,
                "CPU per proxied probe over %d (microsocks+auth -> nginx): observatory %.0f µs"
                        + " (%.0f µs without the JIT compiler threads), prometheus-blackbox-exporter %.0f µs"
                        + " (with serving its /probe request); ratio %.2f (%.2f without JIT)%n",
                probes,
                oursMicros,
                oursWithoutJitMicros,
                blackboxMicros,
                oursMicros / blackboxMicros,
                oursWithoutJitMicros / blackboxMicros);

        assertThat(oursMicros).isPositive();
        assertThat(blackboxMicros).isPositive();
    }

    private static void observatoryProbe(ProbeRequest request) {
        ProbeResult result = PROBER.probe(request).block(PROBE_TIMEOUT.plusSeconds(5));

        assertThat(result).isNotNull();
        assertThat(result.success()).as("%s", result.error()).isTrue();
        assertThat(result.httpStatus()).isEqualTo(204);
    }

    private static void blackboxProbe(HttpRequest probe) throws IOException, InterruptedException {
        HttpResponse<String> response = DRIVER.send(probe, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).as("blackbox_exporter's verdict").contains("\nprobe_success 1\n");
    }
}
