package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrpcServingStatusTest {

    private final HealthStatusManager health = new HealthStatusManager();
    private final List<ServingStatus> watched = new ArrayList<>();

    private void watchWholeServer() {
        ((io.grpc.health.v1.HealthGrpc.AsyncService) health.getHealthService())
                .watch(HealthCheckRequest.newBuilder().setService("").build(), new StreamObserver<>() {
                    @Override
                    public void onNext(HealthCheckResponse value) {
                        watched.add(value.getStatus());
                    }

                    @Override
                    public void onError(Throwable t) {
                        throw new AssertionError(t);
                    }

                    @Override
                    public void onCompleted() {
                        throw new AssertionError("health watch must stay open");
                    }
                });
    }

    @Test
    void statusWhenCreatedThenNotServingUntilObserverStarts() {
        new GrpcServingStatus(health);
        watchWholeServer();

        assertThat(watched).containsExactly(ServingStatus.NOT_SERVING);
    }

    @Test
    void statusWhenObserverStartsThenServingAndWhenShuttingDownThenNotServingForGood() {
        GrpcServingStatus status = new GrpcServingStatus(health);
        watchWholeServer();

        status.serving();
        status.shuttingDown();
        status.shuttingDown();
        health.setStatus("", ServingStatus.SERVING);

        assertThat(watched)
                .containsExactly(ServingStatus.NOT_SERVING, ServingStatus.SERVING, ServingStatus.NOT_SERVING);
    }
}
