package io.observatory.config;

import io.observatory.health.ConsecutiveFailuresPolicy;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.passive.consecutive-failures}: silky's endpoint monitor as a passive policy (see
 * {@link ConsecutiveFailuresPolicy}); a failed call of either kind extends the run, a success ends it.
 *
 * @param threshold          consecutive failed calls that make an outbound unhealthy, at least 0; 0 (like 1) means
 *                           the first failure. Default: 3 (silky's {@code unHealthCeilingTimes})
 * @param reactivationPeriod time after an outbound became unhealthy before its passive state returns to unknown, a
 *                           positive duration. Default: 60s (YARP's)
 */
public record ConsecutiveFailuresSettings(
        @DefaultValue("3") @Min(value = 0, message = ">= 0") int threshold,

        @DefaultValue("60s") @DurationMin(nanos = 0, inclusive = false, message = "> 0")
        Duration reactivationPeriod) {

    /** The policy with these parameters. */
    public ConsecutiveFailuresPolicy policy() {
        return new ConsecutiveFailuresPolicy(threshold, reactivationPeriod);
    }
}
