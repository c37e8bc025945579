package io.observatory.config;

import org.hibernate.validator.constraints.Range;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.availability.healthy-or-panic}: YARP's HealthyOrPanic availability policy with Envoy's panic
 * threshold.
 *
 * @param panicThreshold percentage of the selection, 0-100, that must be usable; below it every outbound is returned
 *                       (panic). 0 panics only when none is usable (YARP); Envoy's default is 50. Default: 0
 */
public record HealthyOrPanicSettings(
        @DefaultValue("0") @Range(min = 0, max = 100, message = "0-100")
        int panicThreshold) {

    /** The policy's defaults, as bound from no properties at all. */
    static final HealthyOrPanicSettings DEFAULTS = ObservatoryConfigBinder.defaults(HealthyOrPanicSettings.class);
}
