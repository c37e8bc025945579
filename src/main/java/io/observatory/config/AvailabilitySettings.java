package io.observatory.config;

import io.observatory.health.AvailabilityPolicy;
import java.util.Objects;

/**
 * Validated availability settings ({@code observatory.availability}): how {@code ListAvailable} and {@code Pick}
 * turn verdicts into the outbounds a balancer may use.
 *
 * @param policy                the availability policy; default {@link AvailabilityPolicy#HEALTHY_OR_PANIC}
 * @param panicThresholdPercent 0-100, default 0: panic only when nothing is usable (YARP); Envoy's 50 returns every
 *                              outbound once fewer than half are usable
 */
public record AvailabilitySettings(AvailabilityPolicy policy, int panicThresholdPercent) {

    /** YARP's default: healthy-or-panic, panic only when nothing is usable. */
    public static final AvailabilitySettings DEFAULT = new AvailabilitySettings(AvailabilityPolicy.HEALTHY_OR_PANIC, 0);

    /** @throws IllegalArgumentException if the threshold is outside 0-100 */
    public AvailabilitySettings {
        Objects.requireNonNull(policy, "policy");
        if (panicThresholdPercent < 0 || panicThresholdPercent > 100) {
            throw new IllegalArgumentException("panic-threshold: " + panicThresholdPercent + " (expected: 0-100)");
        }
    }
}
