package io.observatory.config;

import io.observatory.health.PassivePolicy;
import io.observatory.health.TransportFailureRatePolicy;
import java.util.Objects;

/**
 * Validated passive-health settings ({@code observatory.passive}): the policy that judges the call outcomes balancers
 * report through the v1 API.
 *
 * @param policy the selected policy with its parameters; default YARP's transport failure rate with its defaults
 */
public record PassiveSettings(PassivePolicy<?> policy) {

    /** YARP's default passive policy with YARP's defaults. */
    public static final PassiveSettings DEFAULT = new PassiveSettings(TransportFailureRatePolicy.DEFAULT);

    /** @throws NullPointerException if {@code policy} is null */
    public PassiveSettings {
        Objects.requireNonNull(policy, "policy");
    }
}
