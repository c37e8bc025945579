package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.api.xray.OutboundStatus;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.HttpConnectTestProxy;
import io.observatory.testing.Socks5TestProxy;
import io.observatory.testing.TestTarget;
import io.observatory.testing.TestTls;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on a real gRPC port: the standard observer probes through real in-JVM proxies and an Xray-contract
 * client generated from {@code proto/} reads what an Xray balancer would read.
 */
class XrayObservatoryServiceIntegrationTest extends RunningServiceTest {

    private static final Instant STARTED = Instant.now();
    private static final TestTarget TARGET = TestTarget.https();
    private static final Socks5TestProxy SOCKS = Socks5TestProxy.start("alice", "s3cret");
    private static final HttpConnectTestProxy HTTP = HttpConnectTestProxy.start("bob", "hunter2");
    private static final int DEAD_PORT = ClosedPort.find();

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        registry.add(
                "observatory.probe.trusted-certificates",
                () -> TestTls.certificatePath().toString());
        registry.add("observatory.standard.subject-selector[0]", () -> "proxy_");
        registry.add("observatory.standard.probe-url", () -> TARGET.urlWithHost("localhost", "/generate_204"));
        registry.add("observatory.standard.probe-interval", () -> "200ms");
        registry.add("observatory.standard.enable-concurrency", () -> "true");
        registerProxyOutbound(registry, 0, "proxy_socks", "socks", () -> SOCKS.port(), () -> "alice", () -> "s3cret");
        registerProxyOutbound(registry, 1, "proxy_http", "http", () -> HTTP.port(), () -> "bob", () -> "hunter2");
        registerProxyOutbound(registry, 2, "proxy_dead", "socks", () -> DEAD_PORT, null, null);
        registerProxyOutbound(
                registry, 3, "proxy_wrong_password", "socks", () -> SOCKS.port(), () -> "alice", () -> "guess");
        registerProxyOutbound(registry, 4, "unobserved", "http", () -> HTTP.port(), null, null);
    }

    @AfterAll
    static void stopLab() {
        TARGET.close();
        SOCKS.close();
        HTTP.close();
    }

    private Map<String, OutboundStatus> statuses() {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList()
                .stream()
                .collect(Collectors.toMap(OutboundStatus::getOutboundTag, Function.identity()));
    }

    @Test
    void getOutboundStatusWhenObserverRanThenEverySelectedOutboundHasXrayFields() {
        await().atMost(Duration.ofSeconds(15)).until(() -> statuses().size() == 4);
        Map<String, OutboundStatus> statuses = statuses();
        long now = Instant.now().getEpochSecond();

        assertThat(statuses).containsOnlyKeys("proxy_socks", "proxy_http", "proxy_dead", "proxy_wrong_password");
        for (String alive : List.of("proxy_socks", "proxy_http")) {
            OutboundStatus status = statuses.get(alive);
            assertThat(status.getAlive()).as(status.getLastErrorReason()).isTrue();
            assertThat(status.getDelay()).isBetween(0L, 5_000L);
            assertThat(status.getLastErrorReason()).isEmpty();
            assertThat(status.getLastSeenTime()).isBetween(STARTED.getEpochSecond(), now);
            assertThat(status.getLastTryTime()).isEqualTo(status.getLastSeenTime());
            assertThat(status.hasHealthPing()).isFalse();
        }
        OutboundStatus dead = statuses.get("proxy_dead");
        assertThat(dead.getAlive()).isFalse();
        assertThat(dead.getDelay()).isEqualTo(99_999_999L);
        assertThat(dead.getLastSeenTime()).isZero();
        assertThat(dead.getLastTryTime()).isBetween(STARTED.getEpochSecond(), now);
        assertThat(dead.getLastErrorReason())
                .startsWith("outbound proxy_dead (socks 127.0.0.1:" + DEAD_PORT + "): connection refused by 127.0.0.1:"
                        + DEAD_PORT);

        OutboundStatus wrong = statuses.get("proxy_wrong_password");
        assertThat(wrong.getAlive()).isFalse();
        assertThat(wrong.getDelay()).isEqualTo(99_999_999L);
        assertThat(wrong.getLastErrorReason())
                .contains("proxy 127.0.0.1:" + SOCKS.port() + " rejected the credentials")
                .doesNotContain("guess");
    }

    @Test
    void getOutboundStatusWhenCalledRepeatedlyThenListIsSortedByTag() {
        await().atMost(Duration.ofSeconds(15)).until(() -> statuses().size() == 4);

        List<String> tags = ObservatoryServiceGrpc.newBlockingStub(channel)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList()
                .stream()
                .map(OutboundStatus::getOutboundTag)
                .toList();

        assertThat(tags).containsExactly("proxy_dead", "proxy_http", "proxy_socks", "proxy_wrong_password");
    }

    @Test
    void healthCheckWhenObserverStartedThenServing() {
        HealthCheckResponse response = HealthGrpc.newBlockingStub(channel)
                .check(HealthCheckRequest.newBuilder().setService("").build());

        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    }
}
