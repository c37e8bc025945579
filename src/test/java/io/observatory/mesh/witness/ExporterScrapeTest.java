package io.observatory.mesh.witness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.mesh.protocol.ServerMetrics.Extra;
import io.observatory.mesh.witness.exposition.Gauge;
import io.observatory.mesh.witness.exposition.LabelPair;
import io.observatory.mesh.witness.exposition.Metric;
import io.observatory.mesh.witness.exposition.MetricFamily;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reading a local exporter against a real HTTP server on loopback: the chosen families in configuration order with
 * their labels, the Accept header sent, non-finite values and unchosen families left out, the bound on series, and a
 * clear refusal of an HTTP error or of the text format. (The exposition of a real exporter, Spring Boot's Prometheus
 * endpoint, is read in {@code MeshIntegrationTest}.)
 */
class ExporterScrapeTest {

    private final AtomicReference<String> accept = new AtomicReference<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private URI serve(int status, String contentType, byte[] body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", exchange -> {
            accept.set(exchange.getRequestHeaders().getFirst("Accept"));
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
    }

    private static MetricFamily family(String name, double... values) {
        MetricFamily.Builder family = MetricFamily.newBuilder().setName(name);
        for (int i = 0; i < values.length; i++) {
            Metric.Builder metric =
                    Metric.newBuilder().setGauge(Gauge.newBuilder().setValue(values[i]));
            if (values.length > 1) {
                metric.addLabel(LabelPair.newBuilder().setName("inbound").setValue("in-" + i));
            }
            family.addMetric(metric);
        }
        return family.build();
    }

    private static byte[] delimited(MetricFamily... families) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (MetricFamily family : families) {
            try {
                family.writeDelimitedTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out.toByteArray();
    }

    @Test
    void readWhenTheExporterServesTheProtobufExpositionThenTheChosenFamiliesInConfigurationOrder() throws IOException {
        URI url = serve(
                200,
                ExporterScrape.ACCEPT,
                delimited(
                        family("node_load1", 0.5),
                        family("xray_connections", 3, Double.NaN, 4),
                        family("vpn_users", 12)));

        List<Extra> read =
                new ExporterScrape(url, List.of("vpn_users", "xray_connections"), Duration.ofSeconds(2)).read();

        assertThat(read)
                .containsExactly(
                        new Extra("vpn_users", 12),
                        new Extra("xray_connections{inbound=\"in-0\"}", 3),
                        new Extra("xray_connections{inbound=\"in-2\"}", 4));
        assertThat(accept.get()).isEqualTo(ExporterScrape.ACCEPT);
    }

    @Test
    void readWhenAFamilyHasMoreSamplesThanAReportCarriesThenTheFirstThirtyTwo() throws IOException {
        URI url = serve(200, ExporterScrape.ACCEPT, delimited(family("many", new double[50])));

        assertThat(new ExporterScrape(url, List.of("many"), Duration.ofSeconds(2)).read())
                .hasSize(ServerMetrics.MAX_EXTRA);
    }

    @Test
    void readWhenTheExporterAnswersTheTextFormatThenRefusedSayingWhatItAnswered() throws IOException {
        URI url = serve(200, "text/plain; version=0.0.4", "node_load1 0.5\n".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> new ExporterScrape(url, List.of("node_load1"), Duration.ofSeconds(2)).read())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(url + ": answered text/plain; version=0.0.4 (expected: the protobuf exposition, "
                        + ExporterScrape.ACCEPT + ")");
    }

    @Test
    void readWhenTheExporterStallsMidAnswerThenRefusedAtTheTimeout() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", ExporterScrape.ACCEPT);
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            out.write(delimited(family("vpn_users", 12)), 0, 3);
            out.flush();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
        try (ExporterScrape scrape = new ExporterScrape(url, List.of("vpn_users"), Duration.ofMillis(300))) {
            assertThatThrownBy(scrape::read).hasMessage(url + ": no whole answer within 300ms");
        } finally {
            release.countDown();
        }
    }

    @Test
    void readWhenTheExporterAnswersAnErrorThenRefusedWithItsStatus() throws IOException {
        URI url = serve(503, "text/plain", new byte[0]);

        assertThatThrownBy(() -> new ExporterScrape(url, List.of("node_load1"), Duration.ofSeconds(2)).read())
                .hasMessage(url + ": HTTP 503 (expected: 200)");
    }
}
