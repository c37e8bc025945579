package io.observatory.api;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Component;

/**
 * Drives the whole-server grpc.health.v1 status (service name {@code ""}): NOT_SERVING until the observer has
 * started, SERVING after, and a terminal NOT_SERVING as soon as shutdown begins (before the gRPC server drains), so
 * clients watching health move away first (grpc-java's {@code HealthStatusManager#enterTerminalState}). Shutdown is
 * taken from the context-closed event, which precedes the stop of every lifecycle bean.
 */
@Component
class GrpcServingStatus implements io.observatory.observer.ServingStatus, ApplicationListener<ContextClosedEvent> {

    private final HealthStatusManager health;
    private final AtomicBoolean terminal = new AtomicBoolean();

    GrpcServingStatus(HealthStatusManager health) {
        this.health = health;
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
    }

    @Override
    public void serving() {
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
    }

    /** Enters the terminal NOT_SERVING state; only the first call counts. */
    public void shuttingDown() {
        if (terminal.compareAndSet(false, true)) {
            health.enterTerminalState();
        }
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        shuttingDown();
    }
}
