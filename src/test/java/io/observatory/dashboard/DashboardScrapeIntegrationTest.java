package io.observatory.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.api.RunningServiceTest;
import io.observatory.dashboard.GrafanaDashboard.PromQlUse;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.Socks5TestProxy;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Every metric the Grafana dashboard queries, checked against a real scrape of the running service: the whole
 * application on real ports, its standard observer probing a loopback HTTP target directly and through a real SOCKS5
 * proxy and failing on a closed port (one outbound with its opt-in histogram), and a mesh of two servers (one entry
 * point reachable, one refused) that the service judges as hub from its own witness's reports. The scrape is read as
 * Prometheus reads it (its Accept header, OpenMetrics first), after a first scrape so that the scrape's own series
 * exist.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.grpc.server.port=0",
            "observatory.standard.subject-selector[0]=lab-",
            "observatory.standard.probe-interval=200ms",
            "observatory.standard.enable-concurrency=true",
            "observatory.metrics.outbound-histograms[0]=lab-fast",
            "observatory.mesh.witness.name=w1",
            "observatory.mesh.hub.report-interval=300ms",
            "observatory.mesh.hub.probe.probe-interval=150ms",
            "observatory.mesh.hub.probe.timeout=1s",
            "observatory.mesh.hub.witnesses[0].name=w1",
            "observatory.mesh.hub.witnesses[0].site=lab"
        })
class DashboardScrapeIntegrationTest {

    /** What Prometheus 2.x sends when it scrapes a target. */
    private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0,"
            + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    private static final TestTarget TARGET = TestTarget.http();
    private static final Socks5TestProxy PROXY = Socks5TestProxy.start();
    private static final int CLOSED_PORT = ClosedPort.find();

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void fleet(DynamicPropertyRegistry registry) {
        RunningServiceTest.registerDirectOutbound(registry, 0, "lab-fast", () -> TARGET.url("/generate_204"));
        RunningServiceTest.registerDirectOutbound(
                registry, 1, "lab-refused", () -> "http://127.0.0.1:" + CLOSED_PORT + "/generate_204");
        registry.add("observatory.outbounds[2].tag", () -> "lab-socks");
        registry.add("observatory.outbounds[2].protocol", () -> "socks");
        registry.add("observatory.outbounds[2].address", () -> "127.0.0.1");
        registry.add("observatory.outbounds[2].port", PROXY::port);
        registry.add("observatory.outbounds[2].probe-url", () -> TARGET.url("/generate_204"));
        registry.add("observatory.mesh.hub.probe.probe-url", () -> TARGET.url("/generate_204"));
        server(registry, 0, "s1", PROXY.port());
        server(registry, 1, "s2", CLOSED_PORT);
    }

    private static void server(DynamicPropertyRegistry registry, int index, String name, int entryPointPort) {
        String server = "observatory.mesh.hub.servers[" + index + "].";
        registry.add(server + "name", () -> name);
        registry.add(server + "route", () -> "eu");
        registry.add(server + "entry-points[0].name", () -> "main");
        registry.add(server + "entry-points[0].protocol", () -> "socks");
        registry.add(server + "entry-points[0].address", () -> "127.0.0.1");
        registry.add(server + "entry-points[0].port", () -> entryPointPort);
    }

    @AfterAll
    static void stopLab() {
        PROXY.close();
        TARGET.close();
    }

    private ScrapedSeries scrape() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .header("Accept", PROMETHEUS_ACCEPT)
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return ScrapedSeries.parse(response.body());
    }

    private static List<String> problems(List<PromQlUse> uses, ScrapedSeries scrape) {
        return uses.stream().flatMap(use -> scrape.problems(use).stream()).toList();
    }

    @Test
    void scrapeWhenOutboundsAndTheMeshAreProbedThenEveryMetricAndLabelTheDashboardQueriesIsThere() {
        List<PromQlUse> uses = GrafanaDashboard.read().queries();

        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(problems(uses, scrape())).isEmpty());
    }

    @Test
    void dashboardThenQueriesManyMetricsOfTheServiceAndOfItsJvm() throws Exception {
        Set<String> metrics = new TreeSet<>();
        GrafanaDashboard.read()
                .queries()
                .forEach(use -> metrics.addAll(use.query().metrics()));

        assertThat(metrics).hasSizeGreaterThanOrEqualTo(25);
        assertThat(metrics)
                .filteredOn(metric -> metric.startsWith("observatory_"))
                .hasSizeGreaterThanOrEqualTo(20);
        assertThat(scrape().samples())
                .as("the scrape has more than the dashboard shows")
                .hasSizeGreaterThan(metrics.size());
    }
}
