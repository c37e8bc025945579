package io.observatory.api;

import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;

/**
 * Publishes every configured outbound's verdict as its own grpc.health.v1 service, {@code outbound/<tag>}: HEALTHY is
 * SERVING, UNHEALTHY is NOT_SERVING, and UNKNOWN is the protocol's UNKNOWN. An unknown tag is NOT_FOUND on
 * {@code Check} and SERVICE_UNKNOWN on {@code Watch} (grpc-java's {@link HealthStatusManager}); a removed outbound's
 * service is cleared, so its watchers hear SERVICE_UNKNOWN. Once shutdown has entered the terminal state
 * ({@link GrpcServingStatus}), every outbound reads NOT_SERVING and later verdicts are ignored.
 *
 * <p>Listens to the {@link ObservationStore} on the writer and touches the health manager only on real changes
 * of the served status.
 */
@Component
final class OutboundHealthStatuses implements Consumer<ObservationUpdate> {

    /** Prefix of the per-outbound health service names. */
    static final String SERVICE_PREFIX = "outbound/";

    private final HealthStatusManager health;
    // Confined to the writer: the starting observation and every update arrive there.
    private final Map<String, ServingStatus> applied = new HashMap<>();

    /** Follows {@code store}: on the writer, serves the current observation, then every change. */
    OutboundHealthStatuses(HealthStatusManager health, ObservationStore store) {
        this.health = health;
        store.watch(
                observation -> observation.all().forEach(outbound -> serve(outbound.tag(), outbound.verdict())), this);
    }

    /** The grpc.health.v1 status a verdict is served as. */
    static ServingStatus servingStatus(HealthState verdict) {
        return switch (verdict) {
            case HEALTHY, DEGRADED -> ServingStatus.SERVING;
            case UNHEALTHY -> ServingStatus.NOT_SERVING;
            case UNKNOWN -> ServingStatus.UNKNOWN;
        };
    }

    @Override
    public void accept(ObservationUpdate update) {
        for (OutboundEvent event : update.transitions()) {
            if (event instanceof OutboundEvent.Removed) {
                if (applied.remove(event.tag()) != null) {
                    health.clearStatus(SERVICE_PREFIX + event.tag());
                }
            } else {
                serve(
                        event.tag(),
                        update.observation().get(event.tag()).orElseThrow().verdict());
            }
        }
    }

    private void serve(String tag, HealthState verdict) {
        ServingStatus status = servingStatus(verdict);
        if (applied.put(tag, status) != status) {
            health.setStatus(SERVICE_PREFIX + tag, status);
        }
    }
}
