package io.observatory.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.ServiceProcess;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measurement, not a timed test: the service in its own JVM with {@code -Xmx256m} and 10,000 direct outbounds (or
 * {@code benchmark.scale.outbounds}) probing a local target every 10 s ({@code benchmark.scale.schedule}, default
 * {@code per-outbound}; {@code xray} for Xray's concurrent rounds), while {@code /actuator/prometheus} is scraped every
 * {@value #SCRAPE_EVERY_SECONDS} s, as the chart's ServiceMonitor does. Prints, beside the limits (at most 20
 * series per outbound, a scrape under 2 s, the heap within 256 MB): the {@code observatory_*} series per outbound,
 * each scrape's size and time, heap used (as each scrape shows it, garbage included) and the live data after the last
 * old-generation collection ({@code jvm_gc_live_data_size_bytes}) and the process's CPU share and
 * CPU per probe over the measured window. Asserts only that the service survived (no OutOfMemoryError, every scrape
 * answered) and probed every outbound.
 */
class ScaleBenchmarkIT {

    private static final int OUTBOUNDS = Integer.getInteger("benchmark.scale.outbounds", 10_000);
    private static final String SCHEDULE = System.getProperty("benchmark.scale.schedule", "per-outbound");
    private static final int SCRAPES = 5;
    private static final int SCRAPE_EVERY_SECONDS = 15;
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration WARM_UP = Duration.ofSeconds(30);
    private static final Pattern HTTP_STARTED = Pattern.compile("Netty started on port (\\d+) \\(http\\)");
    private static final Pattern RESULTS =
            Pattern.compile("^observatory_probe_results_total\\{[^}]*} ([0-9.eE+]+)$", Pattern.MULTILINE);

    private static final Pattern HEAP_USED =
            Pattern.compile("^jvm_memory_used_bytes\\{area=\"heap\"[^}]*} ([0-9.eE+]+)$", Pattern.MULTILINE);

    private static final Pattern LIVE_DATA =
            Pattern.compile("^jvm_gc_live_data_size_bytes ([0-9.eE+]+)$", Pattern.MULTILINE);

    private static final TestTarget TARGET = TestTarget.http();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterAll
    static void stopTarget() {
        TARGET.close();
    }

    @Test
    void tenThousandOutboundsOnTwoHundredFiftySixMegabytesWhileScraped(@TempDir Path directory) throws Exception {
        Path config = directory.resolve("scale.yml");
        Files.writeString(config, config());
        try (ServiceProcess service = ServiceProcess.start(
                List.of("-Xmx256m"),
                List.of(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--spring.config.additional-location=file:" + config))) {
            int port = Integer.parseInt(service.awaitMessage(HTTP_STARTED, STARTUP));
            long started = System.nanoTime();
            awaitWindow(started, WARM_UP);
            Duration cpuBefore = cpu(service);
            double resultsBefore = probeResults(scrape(port).body());
            long windowStart = System.nanoTime();
            List<String> scrapes = new ArrayList<>();
            long maxHeap = 0;
            long maxScrapeNanos = 0;
            int series = 0;
            String lastBody = "";
            for (int i = 1; i <= SCRAPES; i++) {
                awaitWindow(windowStart, Duration.ofSeconds((long) SCRAPE_EVERY_SECONDS * i));
                long before = System.nanoTime();
                HttpResponse<String> response = scrape(port);
                long took = System.nanoTime() - before;
                assertThat(response.statusCode()).as("scrape %d", i).isEqualTo(200);
                lastBody = response.body();
                series = (int) lastBody.lines()
                        .filter(line -> line.startsWith("observatory_"))
                        .count();
                long heap = heapUsed(lastBody);
                maxHeap = Math.max(maxHeap, heap);
                maxScrapeNanos = Math.max(maxScrapeNanos, took);
                scrapes.add(String.format(
                        Locale.ROOT, "%.1f MB in %.2f s, heap %d MB", lastBody.length() / 1e6, took / 1e9, heap >> 20));
            }
            long liveData = (long) sum(LIVE_DATA, lastBody);
            long wallNanos = System.nanoTime() - windowStart;
            long cpuNanos = cpu(service).minus(cpuBefore).toNanos();
            double probes = probeResults(lastBody) - resultsBefore;

            assertThat(service.isAlive()).as("the service is alive").isTrue();
            assertThat(service.tail()).doesNotContain("OutOfMemoryError");
            assertThat(probes).as("probes in the window").isGreaterThan(0);
            int cores = Runtime.getRuntime().availableProcessors();
            System.out.printf(
                    Locale.ROOT,
                    "Scale, %d direct outbounds, schedule %s every 10 s, -Xmx256m, /actuator/"
                            + "prometheus scraped every %d s (%d scrapes after %d s):%n",
                    OUTBOUNDS,
                    SCHEDULE,
                    SCRAPE_EVERY_SECONDS,
                    SCRAPES,
                    WARM_UP.toSeconds());
            System.out.printf(
                    Locale.ROOT,
                    "  observatory_* series %d = %.1f per outbound (limit 20); slowest scrape"
                            + " %.2f s (limit 2 s); heap used max %d MB of the 256 MB (garbage included), live data after the"
                            + " last old-generation collection %d MB; scrapes: %s%n",
                    series,
                    (double) series / OUTBOUNDS,
                    maxScrapeNanos / 1e9,
                    maxHeap >> 20,
                    liveData >> 20,
                    scrapes);
            System.out.printf(
                    Locale.ROOT,
                    "  CPU %.1f %% of %d cores, %.0f probes/s, %.0f us CPU per probe"
                            + " (everything the process did, scrapes included)%n",
                    100.0 * cpuNanos / wallNanos / cores,
                    cores,
                    probes / (wallNanos / 1e9),
                    cpuNanos / 1e3 / probes);
        }
    }

    private static String config() {
        StringBuilder yaml = new StringBuilder("observatory:\n  outbounds:\n");
        for (int i = 0; i < OUTBOUNDS; i++) {
            yaml.append(String.format("    - { tag: scale_%05d, protocol: direct }%n", i));
        }
        yaml.append("  standard:\n    subject-selector: [scale_]\n    probe-url: ")
                .append(TARGET.url("/generate_204"))
                .append("\n    probe-interval: 10s\n");
        yaml.append(SCHEDULE.equals("xray") ? "    enable-concurrency: true\n" : "    schedule: " + SCHEDULE + "\n");
        return yaml.toString();
    }

    /** Returns once {@code offset} has passed since {@code startNanos}: the scrape schedule's next tick. */
    private static void awaitWindow(long startNanos, Duration offset) {
        long deadline = startNanos + offset.toNanos();
        Awaitility.await()
                .atMost(offset.plusSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> System.nanoTime() >= deadline);
    }

    private static HttpResponse<String> scrape(int port) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Heap used in bytes as the scrape shows it: {@code jvm_memory_used_bytes{area="heap"}} over every pool. */
    private static long heapUsed(String scrape) {
        return (long) sum(HEAP_USED, scrape);
    }

    private static double probeResults(String scrape) {
        return sum(RESULTS, scrape);
    }

    private static double sum(Pattern series, String scrape) {
        double total = 0;
        Matcher values = series.matcher(scrape);
        while (values.find()) {
            total += Double.parseDouble(values.group(1));
        }
        return total;
    }

    private static Duration cpu(ServiceProcess service) {
        return service.handle().info().totalCpuDuration().orElseThrow();
    }
}
