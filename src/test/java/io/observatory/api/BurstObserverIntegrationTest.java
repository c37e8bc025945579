package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import io.observatory.api.xray.GetOutboundStatusRequest;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.api.xray.OutboundStatus;
import io.observatory.testing.Socks5TestProxy;
import io.observatory.testing.TestTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The burst observer end to end: its initial check is served with Xray's health-ping figures; reflection is on. */
class BurstObserverIntegrationTest extends RunningServiceTest {

    private static final TestTarget TARGET = TestTarget.http();
    private static final Socks5TestProxy SOCKS = Socks5TestProxy.start();

    @DynamicPropertySource
    static void burst(DynamicPropertyRegistry registry) {
        registry.add("observatory.outbounds[0].tag", () -> "burst_socks");
        registry.add("observatory.outbounds[0].protocol", () -> "socks");
        registry.add("observatory.outbounds[0].address", () -> "127.0.0.1");
        registry.add("observatory.outbounds[0].port", SOCKS::port);
        registry.add("observatory.burst.subject-selector[0]", () -> "burst_");
        registry.add("observatory.burst.ping-config.destination", () -> TARGET.urlWithHost("localhost", "/body/1000"));
        registry.add("observatory.burst.ping-config.http-method", () -> "GET");
        registry.add("observatory.burst.ping-config.interval", () -> "10s");
        registry.add("observatory.burst.ping-config.sampling", () -> "2");
    }

    @AfterAll
    static void stopLab() {
        TARGET.close();
        SOCKS.close();
    }

    private List<OutboundStatus> statuses() {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getOutboundStatus(GetOutboundStatusRequest.getDefaultInstance())
                .getStatus()
                .getStatusList();
    }

    @Test
    void getOutboundStatusWhenInitialCheckDoneThenHealthPingCarriesNanosecondStatistics() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !statuses().isEmpty());

        OutboundStatus status = statuses().get(0);
        assertThat(status.getOutboundTag()).isEqualTo("burst_socks");
        assertThat(status.getAlive()).isTrue();
        assertThat(status.getLastSeenTime()).isZero();
        assertThat(status.getLastTryTime()).isZero();
        assertThat(status.getLastErrorReason()).isEmpty();
        assertThat(status.getHealthPing().getAll()).isGreaterThanOrEqualTo(1);
        assertThat(status.getHealthPing().getFail()).isZero();
        assertThat(status.getHealthPing().getAverage())
                .isBetween(1L, Duration.ofSeconds(5).toNanos());
        assertThat(status.getDelay()).isEqualTo(status.getHealthPing().getAverage() / 1_000_000);
        assertThat(status.getHealthPing().getMin())
                .isLessThanOrEqualTo(status.getHealthPing().getMax());
        assertThat(TARGET.lastRequest().method()).isEqualTo("GET");
    }

    @Test
    void reflectionWhenListingServicesThenXrayObservatoryAndHealthAreThere() throws Exception {
        CompletableFuture<List<String>> services = new CompletableFuture<>();
        StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(channel)
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse response) {
                        services.complete(response.getListServicesResponse().getServiceList().stream()
                                .map(ServiceResponse::getName)
                                .toList());
                    }

                    @Override
                    public void onError(Throwable t) {
                        services.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        services.complete(List.of());
                    }
                });
        requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
        requests.onCompleted();

        assertThat(services.get(5, TimeUnit.SECONDS))
                .contains("xray.core.app.observatory.command.ObservatoryService", "grpc.health.v1.Health");
    }
}
