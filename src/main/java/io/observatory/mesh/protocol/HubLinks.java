package io.observatory.mesh.protocol;

import io.observatory.mesh.config.MeshSettings;

/** Opens the link a witness reaches its hubs by: the hub in this process, or the hubs the settings name over gRPC. */
@FunctionalInterface
public interface HubLinks {

    /**
     * Opens the link to the hubs {@code settings} name.
     *
     * @param settings mesh settings with a witness section
     * @return a link the caller closes after its last round
     */
    HubLink open(MeshSettings settings);
}
