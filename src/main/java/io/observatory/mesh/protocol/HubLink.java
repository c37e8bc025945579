package io.observatory.mesh.protocol;

import java.util.Optional;

/**
 * Where a witness gets its fleet and sends its reports: the hubs over gRPC, or the hub in the same process (role
 * {@code hub-and-witness}). Called from the witness's own thread; may block up to its deadline.
 */
public interface HubLink {

    /** The fleet from the first hub that answers, or empty when none does (the caller keeps the fleet it has). */
    Optional<WitnessFleet> fetchFleet();

    /**
     * Sends {@code report} to every hub; a hub that cannot be reached misses this one and gets the next, which
     * carries the whole state again.
     *
     * @return how many hubs took it
     */
    int send(WitnessReport report);

    /** Releases what the link holds (channels); called on the witness's thread after its last round. */
    void close();
}
