package io.observatory.api;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Drives the whole-server grpc.health.v1 status (service name {@code ""}) from Spring Boot's application
 * availability: NOT_SERVING until the application accepts traffic (after every lifecycle bean, the observer
 * included, has started), SERVING after, and a terminal NOT_SERVING as soon as shutdown begins (the context-closed
 * event, before any lifecycle bean stops and the gRPC server drains), so clients watching health move away first
 * (grpc-java's {@code HealthStatusManager#enterTerminalState}).
 *
 * <p>The {@link HealthStatusManager} is this class's own bean, without the destroy method Spring gRPC's would have:
 * the terminal state is entered here, when the context closes, and entering it a second time at bean destruction
 * logs a WARN with a stack trace ("Already terminating") at every shutdown.
 */
@Component
class GrpcServingStatus {

    private final HealthStatusManager health;
    private final AtomicBoolean terminal = new AtomicBoolean();

    GrpcServingStatus(HealthStatusManager health) {
        this.health = health;
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.NOT_SERVING);
    }

    /** The application accepts traffic: the observer has started and the service serves its observation. */
    @EventListener
    void onReadiness(AvailabilityChangeEvent<ReadinessState> event) {
        if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
            serving();
        }
    }

    /** SERVING, unless shutdown has begun (terminal state ignores it). */
    void serving() {
        health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
    }

    /** Enters the terminal NOT_SERVING state when the context closes; only the first call counts. */
    @EventListener(ContextClosedEvent.class)
    void shuttingDown() {
        if (terminal.compareAndSet(false, true)) {
            health.enterTerminalState();
        }
    }

    /** grpc.health.v1's status manager, which Spring gRPC serves; its terminal state is entered by this class. */
    @Configuration(proxyBeanMethods = false)
    static class HealthManager {

        @Bean(destroyMethod = "")
        HealthStatusManager grpcServerHealthStatusManager() {
            return new HealthStatusManager();
        }
    }
}
