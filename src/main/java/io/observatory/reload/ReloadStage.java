package io.observatory.reload;

/**
 * The order in which a reload reaches its {@link Reconfigurable}s, on the writer, one stage after another (within a
 * stage, in no particular order): what is applied later may read what was applied earlier, never the other way round.
 */
public enum ReloadStage {

    /**
     * The outbounds and the verdict rules (passive policy, availability) the observation is built by: first, since
     * every later stage publishes statuses or parts under them.
     */
    VERDICTS,

    /** The observers and the probe metrics: the next probes follow the new outbounds and observer settings. */
    PROBING,

    /** Who may call: the API's credentials and read rules, a capability's callers' credentials. */
    ACCESS,

    /**
     * Capabilities that publish a part of the observation with a health source (a mesh hub judging its new fleet):
     * after the verdicts, whose outbounds their parts' states refer to.
     */
    SOURCES,

    /**
     * Capabilities that feed a source (a mesh witness, which reports to the hub in this process): after the source
     * took its new configuration.
     */
    FEEDERS,

    /**
     * What balancers read of the verdicts (xDS's clusters and endpoints): after the outbounds and the sources, whose
     * groups they serve.
     */
    BALANCERS,

    /** Warm restart: last, as it only needs the configuration in force for its next write of the state file. */
    PERSISTENCE
}
