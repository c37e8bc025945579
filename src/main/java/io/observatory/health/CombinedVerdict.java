package io.observatory.health;

/**
 * Combines the independent active and passive states of one outbound into the verdict balancers act on (YARP keeps
 * active and passive health apart and excludes a destination if any enabled check says it is unhealthy).
 */
public final class CombinedVerdict {

    private CombinedVerdict() {
    }

    /**
     * {@link HealthState#UNHEALTHY} if either check says so, {@link HealthState#HEALTHY} if either says healthy and
     * none unhealthy, else {@link HealthState#UNKNOWN}. Pass UNKNOWN for a check that is disabled: it then never
     * decides the verdict.
     *
     * @param active  the active (probe) state
     * @param passive the passive (reported call) state
     */
    public static HealthState of(HealthState active, HealthState passive) {
        if (active == HealthState.UNHEALTHY || passive == HealthState.UNHEALTHY) {
            return HealthState.UNHEALTHY;
        }
        if (active == HealthState.HEALTHY || passive == HealthState.HEALTHY) {
            return HealthState.HEALTHY;
        }
        return HealthState.UNKNOWN;
    }
}
