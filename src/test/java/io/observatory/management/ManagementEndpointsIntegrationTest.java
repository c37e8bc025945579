package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.observatory.api.RunningServiceTest;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service with its real management HTTP port: the standard observer probes a loopback target and a closed
 * port, and a JDK HTTP client reads health, Prometheus metrics, the observation JSON and build info, as {@code curl}
 * would.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.grpc.server.port=0")
class ManagementEndpointsIntegrationTest {

    private static final Instant STARTED = Instant.now();
    private static final TestTarget TARGET = TestTarget.http();
    private static final int CLOSED_PORT = ClosedPort.find();

    @LocalServerPort
    private int port;

    private ManagementHttp http;

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        RunningServiceTest.registerDirectOutbound(registry, 0, "lab-fast", () -> TARGET.url("/generate_204"));
        RunningServiceTest.registerDirectOutbound(
                registry, 1, "lab-refused", () -> "http://127.0.0.1:" + CLOSED_PORT + "/generate_204");
        registry.add("observatory.standard.subject-selector[0]", () -> "lab-");
        registry.add("observatory.standard.probe-interval", () -> "200ms");
        registry.add("observatory.standard.enable-concurrency", () -> "true");
    }

    @AfterAll
    static void stopTarget() {
        TARGET.close();
    }

    @BeforeEach
    void connect() {
        http = new ManagementHttp(port);
    }

    private String prometheusOnceBothProbed() {
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            String body = http.body("/actuator/prometheus");
            return body.contains("observatory_probe_last_rtt_seconds{outbound=\"lab-fast\"}")
                    && body.contains("observatory_outbound_alive{outbound=\"lab-refused\"}");
        });
        return http.body("/actuator/prometheus");
    }

    @Test
    void prometheusWhenOutboundsProbedThenPerOutboundSeriesWithConventionalNames() {
        List<String> lines = prometheusOnceBothProbed().lines().toList();

        assertThat(lines)
                .contains(
                        "# TYPE observatory_probe_rtt_seconds histogram",
                        "observatory_outbound_alive{outbound=\"lab-fast\"} 1.0",
                        "observatory_outbound_alive{outbound=\"lab-refused\"} 0.0");
        assertThat(lines).anyMatch(line -> line.matches("observatory_probe_rtt_seconds_count [1-9]\\d*"));
        assertThat(lines)
                .anyMatch(line -> line.matches("observatory_probe_rtt_seconds_bucket\\{le=\"5\\.0\"} [1-9]\\d*"));
        assertThat(lines)
                .anyMatch(line -> line.matches("observatory_probe_phase_seconds_count\\{phase=\"connect\"} [1-9]\\d*"));
        assertThat(lines)
                .anyMatch(line -> line.matches(
                        "observatory_probe_last_rtt_seconds\\{outbound=\"lab-fast\"} \\d+\\.\\d+(E-\\d+)?"));
        assertThat(lines)
                .anyMatch(line -> line.matches("observatory_probe_last_phase_seconds\\{outbound=\"lab-fast\","
                        + "phase=\"first_byte\"} \\d+\\.\\d+(E-\\d+)?"));
        assertThat(lines)
                .anyMatch(line -> line.matches("observatory_probe_results_total\\{error_kind=\"none\","
                        + "outbound=\"lab-fast\",outcome=\"success\"} [1-9]\\d*\\.0"));
        assertThat(lines)
                .anyMatch(
                        line -> line.matches(
                                "observatory_probe_results_total\\{"
                                        + "error_kind=\"connection_refused\",outbound=\"lab-refused\",outcome=\"failure\"} [1-9]\\d*\\.0"));
        assertThat(lines)
                .anyMatch(line -> line.matches(
                        "observatory_outbound_last_success_age_seconds\\{outbound=\"lab-fast\"} \\d+\\.\\d+(E-\\d+)?"));
        assertThat(lines).anyMatch(line -> line.matches("observatory_observation_age_seconds \\d+\\.\\d+(E-\\d+)?"));
    }

    @Test
    void prometheusThenObservatorySeriesAreLabelledByOutboundAndBoundedEnumsOnly() {
        List<String> series = prometheusOnceBothProbed()
                .lines()
                .filter(line -> line.startsWith("observatory_"))
                .toList();

        assertThat(series)
                .allSatisfy(line -> assertThat(line)
                        .doesNotContain("http://", "127.0.0.1", "refused by")
                        .matches("[a-z_]+(\\{((outbound|phase|outcome|error_kind|le)=\"[^\"]*\",?)+})? \\S+"));
        assertThat(series)
                .noneMatch(line -> line.contains("lab-refused") && line.contains("observatory_probe_last_rtt"));
        assertThat(series).noneMatch(line -> line.startsWith("observatory_probe_rtt") && line.contains("outbound="));
    }

    @Test
    void prometheusWhenScrapedAgainThenScrapeSizeIsTheBytesOfThePreviousResponse() {
        HttpResponse<String> first = http.get("/actuator/prometheus");

        List<String> second = http.body("/actuator/prometheus").lines().toList();

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second)
                .contains(
                        "# TYPE observatory_scrape_size_bytes gauge",
                        "observatory_scrape_size_bytes "
                                + (double) first.body().getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void prometheusThenAvailabilityPanicForTheWholeFleet() {
        List<String> lines = prometheusOnceBothProbed().lines().toList();

        assertThat(lines).contains("observatory_availability_panic 0.0");
    }

    @Test
    void observatoryEndpointThenSameFieldsAsGetOutboundStatusPlusTheLastProbe() {
        await().atMost(Duration.ofSeconds(15))
                .until(() -> JsonPath.<List<?>>read(http.body("/actuator/observatory"), "$.status")
                                .size()
                        == 2);
        HttpResponse<String> response = http.get("/actuator/observatory");
        long now = Instant.now().getEpochSecond();

        assertThat(response.statusCode()).isEqualTo(200);
        DocumentContext json = JsonPath.parse(response.body());
        assertThat(json.<List<String>>read("$.status[*].outbound_tag")).containsExactly("lab-fast", "lab-refused");

        Map<String, Object> fast = json.read("$.status[0]");
        assertThat(fast)
                .containsEntry("alive", true)
                .containsEntry("last_error_reason", "")
                .doesNotContainKey("health_ping");
        assertThat(((Number) fast.get("delay")).longValue()).isBetween(0L, 5_000L);
        assertThat(((Number) fast.get("last_seen_time")).longValue()).isBetween(STARTED.getEpochSecond(), now);
        assertThat(fast.get("last_try_time")).isEqualTo(fast.get("last_seen_time"));
        assertThat(json.<Boolean>read("$.status[0].last_probe.success")).isTrue();
        assertThat(json.<Integer>read("$.status[0].last_probe.http_status")).isEqualTo(204);
        assertThat(json.<Number>read("$.status[0].last_probe.rtt_nanos").longValue())
                .isPositive();
        assertThat(json.<Map<String, Object>>read("$.status[0].last_probe.phases_nanos"))
                .containsKeys("connect", "first_byte");
        assertThat(json.<Map<String, Object>>read("$.status[0].last_probe")).doesNotContainKey("error_kind");

        Map<String, Object> refused = json.read("$.status[1]");
        assertThat(refused)
                .containsEntry("alive", false)
                .containsEntry("delay", 99_999_999)
                .containsEntry("last_seen_time", 0);
        assertThat((String) refused.get("last_error_reason"))
                .startsWith("outbound lab-refused (direct): connection refused by 127.0.0.1:" + CLOSED_PORT);
        assertThat(json.<String>read("$.status[1].last_probe.error_kind")).isEqualTo("connection_refused");
        assertThat(json.<String>read("$.status[1].last_probe.error_hop")).isEqualTo("target");
        assertThat(json.<Map<String, Object>>read("$.status[1].last_probe")).doesNotContainKey("http_status");
    }

    @Test
    void infoThenBuildSection() {
        DocumentContext info = JsonPath.parse(http.body("/actuator/info"));

        assertThat(info.<String>read("$.build.artifact")).isEqualTo("observatory");
        assertThat(info.<String>read("$.build.group")).isEqualTo("io.observatory");
        assertThat(info.<String>read("$.build.version")).isNotBlank();
    }

    @Test
    void infoThenGitSectionFromTheBuildsGitProperties() throws IOException {
        Properties git = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/git.properties")) {
            assertThat(in)
                    .as("git.properties (absent only in builds from a source tarball)")
                    .isNotNull();
            git.load(in);
        }

        DocumentContext info = JsonPath.parse(http.body("/actuator/info"));

        assertThat(info.<String>read("$.git.commit.id")).isEqualTo(git.getProperty("git.commit.id.abbrev"));
        assertThat(info.<String>read("$.git.branch")).isEqualTo(git.getProperty("git.branch"));
    }

    @Test
    void healthThenLivenessUpAndBothProbeGroupsListed() {
        HttpResponse<String> liveness = http.get("/actuator/health/liveness");

        assertThat(liveness.statusCode()).isEqualTo(200);
        assertThat(JsonPath.<String>read(liveness.body(), "$.status")).isEqualTo("UP");
        await().atMost(Duration.ofSeconds(15))
                .until(() ->
                        JsonPath.read(http.body("/actuator/health"), "$.status").equals("UP"));
        assertThat(JsonPath.<List<String>>read(http.body("/actuator/health"), "$.groups"))
                .containsExactly("liveness", "readiness");
    }
}
