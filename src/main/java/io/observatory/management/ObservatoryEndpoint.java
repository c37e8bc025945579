package io.observatory.management;

import io.observatory.mesh.MeshHub;
import io.observatory.status.ObservationStore;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * The read-only {@code observatory} management endpoint ({@code GET /actuator/observatory}): the current observation
 * as JSON ({@link ObservationView}: Xray's {@code GetOutboundStatus} and more, with the mesh view on a hub), for
 * operators without a gRPC client.
 */
@Component
@Endpoint(id = "observatory")
class ObservatoryEndpoint {

    private final ObservationStore store;
    private final MeshHub hub;

    ObservatoryEndpoint(ObservationStore store, MeshHub hub) {
        this.store = store;
        this.hub = hub;
    }

    /** Returns the current snapshot, one entry per observed outbound, sorted by tag, and the mesh on a hub. */
    @ReadOperation
    ObservationView observation() {
        return ObservationView.of(store.current(), hub.store().current());
    }
}
