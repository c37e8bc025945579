package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.observatory.api.RunningServiceTest;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
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
 * The whole service with its real management port: the standard observer probes a target that answers, one the test
 * stops, and a closed port; a JDK HTTP client reads the page and its data as a browser's fetch would.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.grpc.server.port=0")
class StatusPageIntegrationTest {

    private static final TestTarget FAST = TestTarget.http();
    private static final TestTarget STOPPED = TestTarget.http();
    private static final int CLOSED_PORT = ClosedPort.find();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        RunningServiceTest.registerDirectOutbound(registry, 0, "lab-fast", () -> FAST.url("/generate_204"));
        RunningServiceTest.registerDirectOutbound(
                registry, 1, "lab-refused", () -> "http://127.0.0.1:" + CLOSED_PORT + "/generate_204");
        RunningServiceTest.registerDirectOutbound(registry, 2, "lab-stopped", () -> STOPPED.url("/generate_204"));
        RunningServiceTest.registerDirectOutbound(registry, 3, "other", () -> FAST.url("/generate_204"));
        registry.add("observatory.standard.subject-selector[0]", () -> "lab-");
        registry.add("observatory.standard.probe-interval", () -> "200ms");
        registry.add("observatory.standard.enable-concurrency", () -> "true");
    }

    @AfterAll
    static void stopTargets() {
        FAST.close();
        STOPPED.close();
    }

    private HttpResponse<String> get(String path) {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private DocumentContext json(String path) {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JsonPath.parse(response.body());
    }

    private void awaitProbed() {
        await().atMost(Duration.ofSeconds(15))
                .until(() -> json("/status/api/outbounds?prefix=lab-").<Integer>read("$.counts.unknown") == 0);
    }

    @Test
    void rootWhenRequestedThenRedirectsToTheStatusPageByARelativeUrl() {
        HttpResponse<String> root = get("/");

        assertThat(root.statusCode()).isEqualTo(307);
        assertThat(root.headers().firstValue("Location"))
                .as("kept under a proxy's path prefix")
                .hasValue("status");
    }

    @Test
    void pageWhenRequestedWithATrailingSlashThenRedirectsToItsOwnPathByARelativeUrl() {
        HttpResponse<String> slashed = get("/status/");

        assertThat(slashed.statusCode()).isEqualTo(307);
        assertThat(slashed.headers().firstValue("Location"))
                .as("the page's relative URLs resolve from /status, not /status/")
                .hasValue("../status");
    }

    @Test
    void statusWhenRequestedThenThePageWithItsScriptAndStyleFromTheJar() {
        HttpResponse<String> page = get("/status");
        HttpResponse<String> script = get("/status/assets/page.js");
        HttpResponse<String> style = get("/status/assets/page.css");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body())
                .contains(
                        "<title>Observatory status</title>",
                        "<script src=\"status/assets/page.js\" defer></script>",
                        "<link rel=\"stylesheet\" href=\"status/assets/page.css\">");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/javascript"));
        assertThat(script.body()).contains("fetch('status/api/stream?'");
        assertThat(style.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/css"));
        assertThat(get("/status/assets/missing.js").statusCode()).isEqualTo(404);
    }

    @Test
    void statusWhenRequestedThenThePageAndItsDataComeWithAPolicyOfTheirOwnOriginNoFramingAndNoSniffing() {
        for (String path : List.of("/status", "/status/assets/page.js", "/status/api/outbounds", "/status/api/mesh")) {
            HttpResponse<String> response = get(path);

            assertThat(response.headers().firstValue("Content-Security-Policy"))
                    .as(path)
                    .hasValue("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
                            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
            assertThat(response.headers().firstValue("X-Content-Type-Options"))
                    .as(path)
                    .hasValue("nosniff");
            assertThat(response.headers().firstValue("Referrer-Policy"))
                    .as(path)
                    .hasValue("no-referrer");
        }
    }

    @Test
    void panelsWhenListedThenTheCapabilitiesPanelsWithTheirScriptsAndStylesOpenAsThePage() {
        assertThat(JsonPath.parse(get("/status/assets/panels.json").body()).<List<String>>read("$"))
                .containsExactlyInAnyOrder("mesh", "incidents");
        for (String panel : List.of("mesh", "incidents")) {
            assertThat(get("/status/assets/panels/" + panel + "/panel.js").body())
                    .as(panel)
                    .contains("export function render(");
            assertThat(get("/status/assets/panels/" + panel + "/panel.css")
                            .headers()
                            .firstValue("Content-Type"))
                    .as(panel)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("text/css"));
        }
    }

    @Test
    void outboundsWhenFilteredAndPagedThenThatPageOfTheMatchingOutboundsWithTheirEvidence() {
        awaitProbed();

        DocumentContext page = json("/status/api/outbounds?prefix=lab-&offset=1&limit=1");
        DocumentContext unhealthy = json("/status/api/outbounds?verdict=unhealthy");

        assertThat(page.<Integer>read("$.total")).isEqualTo(4);
        assertThat(page.<Integer>read("$.matching")).isEqualTo(3);
        assertThat(page.<List<String>>read("$.window")).containsExactly("lab-refused");
        assertThat(page.<String>read("$.rows[0].verdict")).isEqualTo("unhealthy");
        assertThat(page.<String>read("$.rows[0].error_kind")).isEqualTo("connection_refused");
        assertThat(page.<String>read("$.rows[0].error")).contains("connection refused by 127.0.0.1:" + CLOSED_PORT);
        assertThat(page.<List<Integer>>read("$.rows[0].rtts"))
                .isNotEmpty()
                .allSatisfy(rtt -> assertThat(rtt).isEqualTo(RttSamples.FAILED));
        assertThat(page.<String>read("$.rows[0].change_reason")).startsWith("active unknown -> unhealthy");
        assertThat(page.<Integer>read("$.counts.healthy")).isEqualTo(2);
        assertThat(unhealthy.<List<String>>read("$.window")).containsExactly("lab-refused");
        assertThat(json("/status/api/outbounds?prefix=lab-fast").<List<Integer>>read("$.rows[0].rtts"))
                .isNotEmpty()
                .allSatisfy(rtt -> assertThat(rtt).isPositive());
    }

    @Test
    void outboundsWhenTheQueryIsBadThen400WithTheReason() {
        HttpResponse<String> response = get("/status/api/outbounds?limit=0");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JsonPath.parse(response.body()).<String>read("$.reason")).isEqualTo("limit: 0 (expected: 1-500)");
    }

    @Test
    void meshWhenNoHubThenEmptyLists() {
        DocumentContext mesh = json("/status/api/mesh");

        assertThat(mesh.<List<Object>>read("$.servers")).isEmpty();
        assertThat(mesh.<List<Object>>read("$.cells")).isEmpty();
    }

    @Test
    void streamWhenAnOutboundsServerStopsThenItsChangeArrivesWithoutAnotherRequest() throws Exception {
        awaitProbed();
        List<String> lines = new CopyOnWriteArrayList<>();
        HttpResponse<Stream<String>> stream = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status/api/stream?prefix=lab-stopped"))
                        .build(),
                HttpResponse.BodyHandlers.ofLines());
        Thread reader = new Thread(() -> stream.body().forEach(lines::add), "stream-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(stream.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
            assertThat(stream.headers().firstValue("Cache-Control")).hasValue("no-store");
            await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains("event:outbounds"));
            assertThat(lines.get(lines.indexOf("event:outbounds") + 1))
                    .contains("\"window\":[\"lab-stopped\"]", "\"verdict\":\"healthy\"");

            STOPPED.close();

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> lines.stream()
                            .anyMatch(line -> line.startsWith("data:")
                                    && line.contains("\"tag\":\"lab-stopped\",\"verdict\":\"unhealthy\"")
                                    && line.contains("\"error_kind\":\"connection_refused\"")));
        } finally {
            stream.body().close();
        }
    }
}
