package io.observatory.health;

import java.util.List;

/**
 * The outcome of an {@link AvailabilityPolicy}: the outbounds a balancer may use and whether the policy is in panic.
 *
 * @param <T> how an outbound is represented
 * @param usable the outbounds to use, in the order they were given
 * @param panic  whether too few outbounds were usable and all of them were returned instead (YARP's HealthyOrPanic,
 *               Envoy's panic threshold)
 */
public record Availability<T>(List<T> usable, boolean panic) {

    /** Copies {@code usable}. */
    public Availability {
        usable = List.copyOf(usable);
    }
}
