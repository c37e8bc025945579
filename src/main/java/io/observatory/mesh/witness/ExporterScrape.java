package io.observatory.mesh.witness;

import com.google.common.io.ByteStreams;
import com.google.common.io.CountingInputStream;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.mesh.protocol.ServerMetrics.Extra;
import io.observatory.mesh.witness.exposition.LabelPair;
import io.observatory.mesh.witness.exposition.Metric;
import io.observatory.mesh.witness.exposition.MetricFamily;
import io.observatory.text.GoDuration;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Reads chosen series from a Prometheus exporter on the witness's server (node_exporter, a VPN service's own
 * exporter) for its self-report. It asks for Prometheus's protobuf exposition ({@value #ACCEPT}), which every
 * client_golang exporter and Prometheus's Java client serve, and parses it with protobuf-java
 * ({@link MetricFamily}); an exporter that answers only the text format is refused with that reason. Each sample of a
 * chosen family is one series, {@code name} or {@code name{label="value",…}}, gauge, counter or untyped with a finite
 * value; at most
 * {@link ServerMetrics#MAX_EXTRA} in configuration order (a series whose name is longer than
 * {@value ServerMetrics#MAX_EXTRA_NAME} characters is left out), at most {@value #MAX_BODY_BYTES} bytes read, and the
 * whole answer within the timeout: the scrape runs on a thread of its own, so an exporter that stalls mid-answer holds
 * up no report (the next scrape waits until that one has ended).
 */
final class ExporterScrape implements AutoCloseable {

    /** What the witness asks for: Prometheus's length-delimited protobuf exposition. */
    static final String ACCEPT =
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

    /** The most of an exposition the witness reads. */
    static final int MAX_BODY_BYTES = 4 << 20;

    private final URI url;
    private final List<String> series;
    private final Duration timeout;
    private final HttpClient http;
    private final ExecutorService worker;
    private @Nullable Future<List<Extra>> running;

    /**
     * @param url     the exporter's metrics URL, e.g. {@code http://127.0.0.1:9100/metrics}
     * @param series  the metric families to read, by name
     * @param timeout the deadline of one scrape
     */
    ExporterScrape(URI url, List<String> series, Duration timeout) {
        this.url = url;
        this.series = List.copyOf(series);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.worker = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mesh-exporter-scrape");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The chosen series, in configuration order then the exporter's.
     *
     * @throws IllegalStateException naming the URL and what went wrong: no whole answer within the timeout (or the
     *     previous scrape still running), an HTTP status other than 200, a body that is not the protobuf exposition,
     *     or more than {@value #MAX_BODY_BYTES} bytes
     */
    List<Extra> read() {
        Future<List<Extra>> previous = running;
        if (previous != null && !previous.isDone()) {
            throw new IllegalStateException(url + ": the previous scrape has not ended yet");
        }
        Future<List<Extra>> scrape = worker.submit(this::scrape);
        running = scrape;
        try {
            return scrape.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            scrape.cancel(true);
            throw new IllegalStateException(url + ": no whole answer within " + GoDuration.format(timeout), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IllegalStateException failed
                    ? failed
                    : new IllegalStateException(url + ": " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            scrape.cancel(true);
            throw new IllegalStateException(url + ": interrupted", e);
        }
    }

    /** Stops the scrape thread; a scrape in flight is interrupted. */
    @Override
    public void close() {
        worker.shutdownNow();
    }

    /** One scrape, on the scrape thread. */
    private List<Extra> scrape() {
        HttpResponse<InputStream> response;
        try {
            response = http.send(
                    HttpRequest.newBuilder(url)
                            .timeout(timeout)
                            .header("Accept", ACCEPT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IllegalStateException(url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(url + ": interrupted", e);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw new IllegalStateException(url + ": HTTP " + response.statusCode() + " (expected: 200)");
            }
            String type = response.headers().firstValue("Content-Type").orElse("");
            if (!type.toLowerCase(Locale.ROOT).startsWith("application/vnd.google.protobuf")) {
                throw new IllegalStateException(url + ": answered " + (type.isEmpty() ? "no Content-Type" : type)
                        + " (expected: the protobuf exposition, " + ACCEPT + ")");
            }
            CountingInputStream counted = new CountingInputStream(ByteStreams.limit(body, MAX_BODY_BYTES + 1L));
            List<Extra> selected = select(counted);
            if (counted.getCount() > MAX_BODY_BYTES) {
                throw new IllegalStateException(url + ": more than " + MAX_BODY_BYTES + " bytes");
            }
            return selected;
        } catch (IOException e) {
            throw new IllegalStateException(url + ": " + e, e);
        }
    }

    private List<Extra> select(InputStream body) throws IOException {
        Map<String, List<Extra>> byName = new LinkedHashMap<>();
        series.forEach(name -> byName.put(name, new ArrayList<>()));
        MetricFamily family;
        while ((family = MetricFamily.parseDelimitedFrom(body)) != null) {
            List<Extra> found = byName.get(family.getName());
            if (found == null) {
                continue;
            }
            for (Metric metric : family.getMetricList()) {
                Double value = value(metric);
                // Prometheus allows NaN and infinities; a report carries finite values only.
                String name = name(family.getName(), metric.getLabelList());
                if (value != null && Double.isFinite(value) && name.length() <= ServerMetrics.MAX_EXTRA_NAME) {
                    found.add(new Extra(name, value));
                }
            }
        }
        return byName.values().stream()
                .flatMap(List::stream)
                .limit(ServerMetrics.MAX_EXTRA)
                .toList();
    }

    private static @Nullable Double value(Metric metric) {
        if (metric.hasGauge()) {
            return metric.getGauge().getValue();
        }
        if (metric.hasCounter()) {
            return metric.getCounter().getValue();
        }
        return metric.hasUntyped() ? metric.getUntyped().getValue() : null;
    }

    /** {@code name}, or {@code name{a="1",b="2"}} in the text format's way. */
    private static String name(String family, List<LabelPair> labels) {
        return labels.isEmpty()
                ? family
                : family
                        + labels.stream()
                                .map(label -> label.getName() + "=\""
                                        + label.getValue()
                                                .replace("\\", "\\\\")
                                                .replace("\"", "\\\"")
                                                .replace("\n", "\\n")
                                        + "\"")
                                .collect(Collectors.joining(",", "{", "}"));
    }
}
