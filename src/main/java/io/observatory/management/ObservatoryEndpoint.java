package io.observatory.management;

import io.observatory.status.ObservationStore;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * The read-only {@code observatory} management endpoint ({@code GET /actuator/observatory}): the current observation
 * as JSON ({@link ObservationView}: Xray's {@code GetOutboundStatus} and more), for operators without a gRPC client.
 */
@Component
@Endpoint(id = "observatory")
class ObservatoryEndpoint {

    private final ObservationStore store;

    ObservatoryEndpoint(ObservationStore store) {
        this.store = store;
    }

    /** Returns the current snapshot, one entry per observed outbound, sorted by tag. */
    @ReadOperation
    ObservationView observation() {
        return ObservationView.of(store.current());
    }
}
