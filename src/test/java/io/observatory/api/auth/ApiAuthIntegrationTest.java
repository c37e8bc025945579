package io.observatory.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.observatory.api.RunningServiceTest;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.testing.BearerHttp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on a real gRPC port with an API token file: Spring gRPC applies the interceptor to the v1 service
 * (the application's, or the canned one while there is none) and to nothing else, and a rewritten token file takes
 * effect without a restart.
 */
class ApiAuthIntegrationTest extends RunningServiceTest {

    private static final String TOKEN = "ZTJlLXRva2VuLTMyLWJ5dGVzLWxvbmctZW5vdWdoLi4";
    private static final Path TOKEN_FILE = BearerHttp.tokenFile(TOKEN);

    @DynamicPropertySource
    static void tokenFile(DynamicPropertyRegistry properties) {
        properties.add("observatory.api.auth.token-file", TOKEN_FILE::toString);
    }

    @AfterAll
    static void deleteTokenFile() throws IOException {
        Files.deleteIfExists(TOKEN_FILE);
    }

    @Test
    void writeWhenNoTokenThenUnauthenticated() {
        Status refused = V1Calls.call(channel, "ReportOutcomes", null);

        assertThat(refused.getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
        assertThat(refused.getDescription()).isEqualTo("missing bearer token or client certificate");
    }

    @Test
    void writeWhenTokenFromFileThenAccepted() {
        assertThat(V1Calls.call(channel, "ReportOutcomes", "Bearer " + TOKEN)).isEqualTo(Status.OK);
    }

    @Test
    void readWhenNoTokenThenOpen() {
        assertThat(V1Calls.call(channel, "GetObservation", null)).isEqualTo(Status.OK);
    }

    @Test
    void otherServicesWhenNoTokenThenAnswer() {
        ServingStatus health = HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance())
                .getStatus();
        boolean xrayAnswered = io.observatory.api.xray.ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .hasStatus();

        assertThat(health).isEqualTo(ServingStatus.SERVING);
        assertThat(xrayAnswered).isTrue();
    }

    @Test
    void tokenFileWhenRewrittenThenNewTokenAcceptedWithoutRestart() throws IOException {
        String rotated = "cm90YXRlZC1lMmUtdG9rZW4tMzItYnl0ZXMtbG9uZw";

        Files.writeString(TOKEN_FILE, rotated + "\n");

        await().atMost(Duration.ofSeconds(10))
                .until(() -> V1Calls.call(channel, "ReportOutcomes", "Bearer " + rotated)
                        .isOk());
        assertThat(V1Calls.call(channel, "ReportOutcomes", "Bearer " + TOKEN).getDescription())
                .isEqualTo("invalid bearer token");
        Files.writeString(TOKEN_FILE, TOKEN + "\n");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> V1Calls.call(channel, "ReportOutcomes", "Bearer " + TOKEN)
                        .isOk());
    }
}
