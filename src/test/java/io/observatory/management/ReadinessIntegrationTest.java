package io.observatory.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.JsonPath;
import io.observatory.api.RunningServiceTest;
import io.observatory.testing.TestTarget;
import java.net.http.HttpResponse;
import java.time.Duration;
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
 * Readiness on the real management port while the first round is slow: the only outbound probes a target that never
 * answers, so the first snapshot comes with the probe's deadline: 10 s here (Xray's 5 s would leave a loaded machine
 * little time to read the state before it), still sooner than the readiness grace of 15 s.
 */
@DirtiesContext(classMode = ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "spring.grpc.server.port=0")
class ReadinessIntegrationTest {

    private static final TestTarget TARGET = TestTarget.http();

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        RunningServiceTest.registerDirectOutbound(registry, 0, "lab-hang", () -> TARGET.url("/hang"));
        registry.add("observatory.standard.subject-selector[0]", () -> "lab-");
        registry.add("observatory.standard.timeout", () -> "10s");
    }

    @AfterAll
    static void stopTarget() {
        TARGET.close();
    }

    @Test
    void readinessWhenFirstSnapshotPendingThenOutOfServiceAndUpOnceItIsPublished() {
        ManagementHttp http = new ManagementHttp(port);

        HttpResponse<String> before = http.get("/actuator/health/readiness");
        String observatoryBefore = http.body("/actuator/observatory");

        assertThat(before.statusCode()).isEqualTo(503);
        assertThat(JsonPath.<String>read(before.body(), "$.status")).isEqualTo("OUT_OF_SERVICE");
        assertThat(JsonPath.<String>read(http.body("/actuator/health/liveness"), "$.status"))
                .isEqualTo("UP");
        assertThat(observatoryBefore).isEqualTo("{\"status\":[]}");

        // Sooner than the 15 s grace: it is the first (failed) probe's snapshot that makes the service ready.
        await().atMost(Duration.ofSeconds(14))
                .until(() -> http.get("/actuator/health/readiness").statusCode() == 200);
        assertThat(JsonPath.<String>read(http.body("/actuator/health/readiness"), "$.status"))
                .isEqualTo("UP");
        assertThat(JsonPath.<String>read(http.body("/actuator/observatory"), "$.status[0].last_probe.error_kind"))
                .isEqualTo("response_timeout");
    }
}
