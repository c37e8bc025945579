package io.observatory.config;

import io.observatory.health.AvailabilityPolicy;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * {@code observatory.availability}: how verdicts become the outbounds a balancer may use ({@code ListAvailable},
 * {@code Pick}). One section per policy, as gRPC's load-balancing configuration names one ({@code {"round_robin":
 * {}}}): the section that is set selects its policy; without either, healthy-or-panic applies with its defaults.
 * Setting both is an error.
 *
 * @param healthyOrPanic    YARP's HealthyOrPanic with Envoy's panic threshold: the outbounds that are not unhealthy,
 *                          or every outbound of the selection (panic) when too few are left. Default: on, with its
 *                          defaults, unless healthy-and-unknown is set
 * @param healthyAndUnknown YARP's HealthyAndUnknown: the outbounds that are not unhealthy, possibly none; it has no
 *                          parameters, so {@code healthy-and-unknown: {}} selects it. Default: off
 */
public record AvailabilitySettings(
        @Nullable @NestedConfigurationProperty HealthyOrPanicSettings healthyOrPanic,
        @Nullable HealthyAndUnknownSettings healthyAndUnknown)
        implements Checked {

    /** Selects healthy-or-panic with its defaults when no policy is set. */
    public AvailabilitySettings {
        if (healthyOrPanic == null && healthyAndUnknown == null) {
            healthyOrPanic = HealthyOrPanicSettings.DEFAULTS;
        }
    }

    @Override
    public void check(Problems problems) {
        if (healthyOrPanic != null && healthyAndUnknown != null) {
            problems.reject(
                    "healthy-and-unknown",
                    "set together with observatory.availability.healthy-or-panic",
                    "at most one availability policy: remove observatory.availability.healthy-or-panic or "
                            + "observatory.availability.healthy-and-unknown");
        }
    }

    /** The selected policy with its parameters. */
    public AvailabilityPolicy policy() {
        if (healthyAndUnknown != null) {
            return AvailabilityPolicy.HEALTHY_AND_UNKNOWN;
        }
        return new AvailabilityPolicy.HealthyOrPanic(
                (healthyOrPanic != null ? healthyOrPanic : HealthyOrPanicSettings.DEFAULTS).panicThreshold());
    }
}
