package io.observatory.health;

/**
 * The health of one outbound as judged by one check (active probes or passive call outcomes) or by all of them
 * together (see {@link CombinedVerdict}). Every state starts {@link #UNKNOWN} (YARP's {@code DestinationHealth}).
 */
public enum HealthState {
    /** No verdict yet: never probed, below a threshold since start, or reactivated after being unhealthy. */
    UNKNOWN,
    /** The check considers the outbound usable. */
    HEALTHY,
    /** The check considers the outbound unusable. */
    UNHEALTHY
}
