package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.observatory.testing.BearerHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The status page of a service whose reads need the API token ({@code require-for-reads}, a token file): the page
 * itself stays open, its data answers 401 with the reason until the request carries the token in its
 * {@code Authorization} header, and only there.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.grpc.server.port=0",
            "observatory.api.auth.require-for-reads=true",
            "observatory.outbounds[0].tag=lab-a",
            "observatory.outbounds[0].protocol=direct"
        })
class StatusPageAuthIntegrationTest {

    private static final String TOKEN = "c3RhdHVzLXBhZ2UtdG9rZW4tZm9yLXRoZS10ZXN0";
    private static final Path TOKEN_FILE = BearerHttp.tokenFile(TOKEN);

    private final BearerHttp http = new BearerHttp();

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void token(DynamicPropertyRegistry registry) {
        registry.add("observatory.api.auth.token-file", TOKEN_FILE::toString);
    }

    private HttpResponse<String> get(String path, @Nullable String authorization) {
        return http.get(port, path, authorization);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/status", "/status/assets/page.js", "/status/assets/page.css"})
    void pageWhenReadsNeedTheTokenThenStillOpenSinceItHoldsNoData(String path) {
        assertThat(get(path, null).statusCode()).isEqualTo(200);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "none",
            value = {
                "/status/api/outbounds                    | none               | MISSING",
                "/status/api/mesh                         | none               | MISSING",
                "/status/api/mesh/s1                      | none               | MISSING",
                "/status/api/stream                       | none               | MISSING",
                "/status/api/outbounds                    | Bearer guessed     | invalid bearer token",
                "/status/api/stream                       | Basic dXNlcjpwdw== | NOT_BEARER",
                "/status/api/outbounds?access_token=TOKEN | none               | MISSING",
                "/status/api/stream?token=TOKEN           | none               | MISSING",
                "/status/%61pi/outbounds                  | none               | MISSING",
                "/status/api;x/outbounds                  | none               | MISSING",
                "/status/api/stream;jsessionid=1          | none               | MISSING",
                "/actuator/observatory                    | none               | MISSING",
                "/actuator/observatory;x                  | none               | MISSING",
                "/actuator/observatory                    | Bearer guessed     | invalid bearer token"
            })
    void dataWhenTheRequestLacksTheTokenThen401WithTheReason(String path, String authorization, String reason) {
        HttpResponse<String> response = get(path.replace("TOKEN", TOKEN), authorization);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate"))
                .hasValue(
                        authorization == null
                                ? "Bearer realm=\"observatory\""
                                : "Bearer realm=\"observatory\", error=\"invalid_token\"");
        assertThat(JsonPath.parse(response.body()).<String>read("$.reason"))
                .isEqualTo(
                        switch (reason) {
                            case "MISSING" ->
                                "missing bearer token (expected: the header Authorization: Bearer <token>)";
                            case "NOT_BEARER" ->
                                "the Authorization header is not a bearer token (expected: Bearer <token>)";
                            default -> reason;
                        });
        assertThat(response.body()).doesNotContain(TOKEN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/status/api/outbounds", "/status/api/mesh"})
    void dataWhenTheRequestCarriesTheTokenThenServed(String path) {
        HttpResponse<String> response = get(path, "Bearer " + TOKEN);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void detailWhenTheRequestCarriesTheTokenThenPastTheGuardToTheItemsAnswer() {
        HttpResponse<String> response = get("/status/api/mesh/s1", "Bearer " + TOKEN);

        assertThat(response.statusCode())
                .as("no hub here, so no server s1: the guard let the request through")
                .isEqualTo(404);
        assertThat(response.body()).contains("no mesh item");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void actuatorObservationWhenTheRequestCarriesTheTokenThenServedAndHealthAndMetricsStayOpen() {
        assertThat(get("/actuator/observatory", "Bearer " + TOKEN).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/health/liveness", null).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/prometheus", null).statusCode()).isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer ", "bearer "})
    void streamWhenTheRequestCarriesTheTokenThenTheEventsFlow(String scheme) throws Exception {
        HttpResponse<Stream<String>> stream = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status/api/stream"))
                                .header("Authorization", scheme + TOKEN)
                                .build(),
                        HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = stream.body()) {
            assertThat(stream.statusCode()).isEqualTo(200);
            assertThat(lines.limit(2).toList()).first().isEqualTo("event:outbounds");
        }
    }
}
