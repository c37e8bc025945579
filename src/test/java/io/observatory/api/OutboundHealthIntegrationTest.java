package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.TestTarget;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on a real gRPC port: the standard observer probes loopback targets and a closed port, and a
 * grpc.health.v1 client reads each outbound as the health service {@code outbound/<tag>}.
 */
class OutboundHealthIntegrationTest extends RunningServiceTest {

    private static final TestTarget TARGET = TestTarget.http();
    private static final TestTarget FADING = TestTarget.http();
    private static final int CLOSED_PORT = ClosedPort.find();

    @DynamicPropertySource
    static void outbounds(DynamicPropertyRegistry registry) {
        registerDirectOutbound(registry, 0, "lab-up", () -> TARGET.url("/generate_204"));
        registerDirectOutbound(registry, 1, "lab-refused", () -> "http://127.0.0.1:" + CLOSED_PORT + "/generate_204");
        registerDirectOutbound(registry, 2, "lab-fading", () -> FADING.url("/generate_204"));
        registry.add("observatory.standard.subject-selector[0]", () -> "lab-");
        registry.add("observatory.standard.probe-interval", () -> "200ms");
        registry.add("observatory.standard.enable-concurrency", () -> "true");
    }

    @AfterAll
    static void stopTargets() {
        TARGET.close();
        FADING.close();
    }

    private ServingStatus check(String service) {
        return HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder().setService(service).build())
                .getStatus();
    }

    @Test
    void checkWhenOutboundsProbedThenReachableServingAndRefusedNotServing() {
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(check("outbound/lab-up")).isEqualTo(ServingStatus.SERVING);
            assertThat(check("outbound/lab-refused")).isEqualTo(ServingStatus.NOT_SERVING);
        });
    }

    @Test
    void checkWhenTagNotConfiguredThenNotFound() {
        StatusRuntimeException refused =
                catchThrowableOfType(StatusRuntimeException.class, () -> check("outbound/lab-missing"));

        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    }

    @Test
    void watchWhenTargetGoesAwayThenStreamHearsServingThenNotServing() {
        List<ServingStatus> watched = new CopyOnWriteArrayList<>();
        HealthGrpc.newStub(channel)
                .watch(
                        HealthCheckRequest.newBuilder()
                                .setService("outbound/lab-fading")
                                .build(),
                        new StreamObserver<>() {
                            @Override
                            public void onNext(HealthCheckResponse response) {
                                watched.add(response.getStatus());
                            }

                            @Override
                            public void onError(Throwable t) {
                                watched.add(ServingStatus.UNRECOGNIZED);
                            }

                            @Override
                            public void onCompleted() {
                                watched.add(ServingStatus.UNRECOGNIZED);
                            }
                        });
        await().atMost(Duration.ofSeconds(15)).until(() -> watched.contains(ServingStatus.SERVING));

        FADING.close();

        await().atMost(Duration.ofSeconds(15)).until(() -> watched.contains(ServingStatus.NOT_SERVING));
        assertThat(watched).doesNotContain(ServingStatus.UNRECOGNIZED, ServingStatus.SERVICE_UNKNOWN);
        assertThat(watched.subList(watched.indexOf(ServingStatus.SERVING), watched.size()))
                .containsExactly(ServingStatus.SERVING, ServingStatus.NOT_SERVING);
        assertThat(check("outbound/lab-fading")).isEqualTo(ServingStatus.NOT_SERVING);
    }
}
