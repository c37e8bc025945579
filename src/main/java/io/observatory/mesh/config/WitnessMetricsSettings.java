package io.observatory.mesh.config;

import io.observatory.config.HttpUrl;
import io.observatory.config.Problems;
import jakarta.validation.constraints.NotBlank;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.mesh.witness.metrics}: the witness's reading of its own server (CPU, load, memory, disk, network
 * throughput, established TCP connections, and chosen series of a local Prometheus exporter), sent with each report;
 * the hub shows the latest per server and marks them stale when that report is older than its {@code no-data-after}.
 *
 * @param enabled   whether to read and send them; an external vantage point's are ignored by the hub. Default: true
 * @param diskPath  a path on the file system whose size and free space to report. Default: /
 * @param scrapeUrl a Prometheus exporter on this server to read {@code series} from, e.g.
 *                  {@code http://127.0.0.1:9100/metrics} (node_exporter); it must serve Prometheus's protobuf
 *                  exposition, as client_golang exporters and Prometheus's Java client do. Default: none
 * @param series    the metric families to read from it, by name, at most 32 (each sample of a family is one series,
 *                  at most 32 in all); required with scrape-url. Default: none
 */
public record WitnessMetricsSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("/") @NotBlank(message = "a path") String diskPath,
        @Nullable @HttpUrl String scrapeUrl,
        @DefaultValue List<String> series) {

    /** At most this many families in {@code series}. */
    public static final int MAX_SERIES = 32;

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    public WitnessMetricsSettings {
        scrapeUrl = scrapeUrl == null || scrapeUrl.isBlank() ? null : scrapeUrl.strip();
        series = series.stream().map(String::strip).toList();
    }

    /** The disk path, stripped. */
    public Path disk() {
        return Path.of(diskPath.strip());
    }

    /** The exporter's URL, validated; {@code null} when none is set. */
    public @Nullable URI scrape() {
        return scrapeUrl == null ? null : URI.create(scrapeUrl);
    }

    /** Checks that the exporter and its series come together, and the series' count and names. */
    void check(Problems problems) {
        if (scrapeUrl != null && series.isEmpty()) {
            problems.reject("metrics.series", "none", "at least one metric name to read from metrics.scrape-url");
        }
        if (scrapeUrl == null && !series.isEmpty()) {
            problems.reject("metrics.scrape-url", "none", "the URL of the exporter to read metrics.series from");
        }
        if (series.size() > MAX_SERIES) {
            problems.reject("metrics.series", series.size() + " names", "at most " + MAX_SERIES);
        }
        for (int i = 0; i < series.size(); i++) {
            if (!METRIC_NAME.matcher(series.get(i)).matches()) {
                problems.reject(
                        "metrics.series[" + i + "]",
                        series.get(i),
                        "a Prometheus metric name, letters, digits, _ and :, not starting with a digit");
            }
        }
    }
}
