package io.observatory.config;

import io.observatory.health.PassivePolicy;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * {@code observatory.passive}: passive health, judged from the call outcomes balancers report through the v1 API.
 * One section per policy, as grpc-java's outlier detection configures one object per algorithm: the section that is
 * set selects its policy ({@code consecutive-failures: {}} selects it with its defaults); without either,
 * transport-failure-rate applies with its defaults. Setting both is an error.
 *
 * @param transportFailureRate YARP's TransportFailureRate: the share of transport failures over a sliding window.
 *                             Default: on, with its defaults, unless consecutive-failures is set
 * @param consecutiveFailures  silky's consecutive failed calls. Default: off
 */
public record PassiveSettings(
        @Nullable @NestedConfigurationProperty TransportFailureRateSettings transportFailureRate,
        @Nullable @NestedConfigurationProperty ConsecutiveFailuresSettings consecutiveFailures)
        implements Checked {

    /** Selects transport-failure-rate with its defaults when no policy is set. */
    public PassiveSettings {
        if (transportFailureRate == null && consecutiveFailures == null) {
            transportFailureRate = TransportFailureRateSettings.DEFAULTS;
        }
    }

    @Override
    public void check(Problems problems) {
        if (transportFailureRate != null && consecutiveFailures != null) {
            problems.reject(
                    "consecutive-failures",
                    "set together with observatory.passive.transport-failure-rate",
                    "at most one passive policy: remove observatory.passive.transport-failure-rate or "
                            + "observatory.passive.consecutive-failures");
        }
    }

    /** The selected policy with its parameters. */
    public PassivePolicy<?> policy() {
        return consecutiveFailures != null
                ? consecutiveFailures.policy()
                : (transportFailureRate != null ? transportFailureRate : TransportFailureRateSettings.DEFAULTS)
                        .policy();
    }
}
