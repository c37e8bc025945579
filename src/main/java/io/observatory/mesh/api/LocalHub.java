package io.observatory.mesh.api;

import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.protocol.HubLink;
import io.observatory.mesh.protocol.WitnessFleet;
import io.observatory.mesh.protocol.WitnessReport;
import java.time.Clock;
import java.util.Optional;

/**
 * The hub in the same process (role {@code hub-and-witness}): the witness's fleet and reports go through the same
 * mapping as over gRPC, without the network or a credential; its identity is its configured name.
 */
final class LocalHub implements HubLink {

    private final MeshHub hub;
    private final String witness;
    private final Clock clock;

    LocalHub(MeshHub hub, String witness, Clock clock) {
        this.hub = hub;
        this.witness = witness;
        this.clock = clock;
    }

    @Override
    public Optional<WitnessFleet> fetchFleet() {
        MeshHub.InForce inForce = hub.inForce();
        HubSettings settings = inForce.settings().hub();
        if (settings == null) {
            return Optional.empty();
        }
        return settings.witnesses().stream()
                .filter(candidate -> candidate.name().equals(witness))
                .findFirst()
                .map(known -> MeshProtos.witnessFleet(MeshProtos.fleet(settings, known, inForce.assignment())));
    }

    @Override
    public int send(WitnessReport report) {
        hub.report(witness, MeshProtos.report(MeshProtos.request(report), clock.instant()), outcome -> {});
        return 1;
    }

    @Override
    public void close() {}
}
