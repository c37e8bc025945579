package io.observatory.api;

import io.observatory.mesh.MeshHub;
import io.observatory.mesh.witness.HubLink;
import io.observatory.mesh.witness.WitnessFleet;
import io.observatory.mesh.witness.WitnessReport;
import java.util.Optional;

/**
 * The hub in the same process (role {@code hub-and-witness}): the witness's fleet and reports go through the same
 * mapping as over gRPC, without the network or a credential; its identity is its configured name.
 */
final class LocalHub implements HubLink {

    private final MeshHub hub;
    private final String witness;

    LocalHub(MeshHub hub, String witness) {
        this.hub = hub;
        this.witness = witness;
    }

    @Override
    public Optional<WitnessFleet> fetchFleet() {
        return hub.settings().witnesses().stream().filter(candidate -> candidate.name().equals(witness)).findFirst()
                .map(settings -> MeshProtos.witnessFleet(MeshProtos.fleet(hub.settings(), settings)));
    }

    @Override
    public int send(WitnessReport report) {
        hub.report(witness, MeshProtos.report(MeshProtos.request(report)), outcome -> { });
        return 1;
    }

    @Override
    public void close() {
    }
}
