package io.observatory.health;

/**
 * The health of one outbound as judged by one check (active probes, passive call outcomes, or a health source a
 * capability registers, such as the mesh) or by all of them together (see {@link CombinedVerdict}). Every state starts
 * {@link #UNKNOWN} (YARP's {@code DestinationHealth}); {@link #DEGRADED} is Envoy's.
 */
public enum HealthState {
    /** No verdict yet: never probed, below a threshold since start, or reactivated after being unhealthy. */
    UNKNOWN,
    /** The check considers the outbound usable. */
    HEALTHY,
    /** The check considers the outbound unusable. */
    UNHEALTHY,
    /**
     * Usable, but only when no healthy or unknown outbound is left in a selection (Envoy's degraded host), e.g. the
     * mesh's pair cut. SERVING for grpc.health, alive for the Xray API.
     */
    DEGRADED
}
