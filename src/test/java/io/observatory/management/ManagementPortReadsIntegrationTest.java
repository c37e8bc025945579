package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import io.observatory.testing.BearerHttp;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The {@code observatory} endpoint on a management port of its own ({@code management.server.port}) and under a base
 * path of the operator's ({@code management.endpoints.web.base-path}), with reads that need the API token: refused
 * without the token however its path is spelled, served with it; health stays open for the platform's probes.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
            "management.server.port=0",
            "management.endpoints.web.base-path=/manage",
            "spring.grpc.server.port=0",
            "observatory.api.auth.require-for-reads=true",
            "observatory.outbounds[0].tag=lab-a",
            "observatory.outbounds[0].protocol=direct"
        })
class ManagementPortReadsIntegrationTest {

    private static final String TOKEN = "bWFuYWdlbWVudC1wb3J0LXRva2VuLWZvci10aGUtdGVzdA";
    private static final Path TOKEN_FILE = BearerHttp.tokenFile(TOKEN);

    private final BearerHttp http = new BearerHttp();

    @LocalManagementPort
    private int managementPort;

    @DynamicPropertySource
    static void token(DynamicPropertyRegistry registry) {
        registry.add("observatory.api.auth.token-file", TOKEN_FILE::toString);
    }

    private HttpResponse<String> get(String path, @Nullable String authorization) {
        return http.get(managementPort, path, authorization);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/manage/observatory", "/manage/observatory;x", "/manage/%6Fbservatory"})
    void endpointWhenTheRequestLacksTheTokenThen401WithTheReason(String path) {
        HttpResponse<String> response = get(path, null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"observatory\"");
        assertThat(JsonPath.parse(response.body()).<String>read("$.reason"))
                .isEqualTo("missing bearer token (expected: the header Authorization: Bearer <token>)");
    }

    @Test
    void endpointWhenTheRequestCarriesTheTokenThenServedAndHealthStaysOpen() {
        HttpResponse<String> observation = get("/manage/observatory", "Bearer " + TOKEN);

        assertThat(observation.statusCode()).isEqualTo(200);
        assertThat(JsonPath.parse(observation.body()).<List<?>>read("$.status")).isNotNull();
        assertThat(get("/manage/health/liveness", null).statusCode()).isEqualTo(200);
    }
}
