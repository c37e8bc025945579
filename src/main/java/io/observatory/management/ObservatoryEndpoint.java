package io.observatory.management;

import io.observatory.mesh.MeshView;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
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

    ObservatoryEndpoint(ObservationStore store) {
        this.store = store;
    }

    /** Returns the current snapshot, one entry per observed outbound, sorted by tag, and the mesh on a hub. */
    @ReadOperation
    ObservationView observation() {
        Observation observation = store.current();
        return ObservationView.of(observation, observation.part(MeshView.PART));
    }
}
