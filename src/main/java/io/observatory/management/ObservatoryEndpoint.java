package io.observatory.management;

import io.observatory.snapshot.ObservationStore;
import java.util.List;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * The read-only {@code observatory} management endpoint ({@code GET /actuator/observatory}): the current observation
 * as JSON ({@link ObservationView}: Xray's {@code GetOutboundStatus} and more, with the capabilities' parts, such as
 * the mesh view on a hub), for operators without a gRPC client.
 */
@Component
@Endpoint(id = "observatory")
class ObservatoryEndpoint {

    private final ObservationStore store;
    private final List<PartView<?, ?>> views;

    ObservatoryEndpoint(ObservationStore store, List<PartView<?, ?>> views) {
        this.store = store;
        this.views = List.copyOf(views);
    }

    /** Returns the current snapshot, one entry per observed outbound, sorted by tag, and the capabilities' parts. */
    @ReadOperation
    ObservationView observation() {
        return ObservationView.of(store.current(), views);
    }
}
