package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.config.ObservatoryProperties.AvailabilityProperties;
import io.observatory.config.ObservatoryProperties.PassiveProperties;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.PassivePolicy;
import io.observatory.health.TransportFailureRatePolicy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * Turns the health keys into the {@code health} package's policies: the active check of an observer
 * ({@code expected-status}, {@code healthy-threshold}, {@code unhealthy-threshold}, burst's
 * {@code max-failure-ratio}), {@code observatory.passive} and {@code observatory.availability}.
 *
 * <p>Ranges are checked here, before the policies are built, so that an error names the full property
 * ({@code observatory.burst.healthy-threshold: 0 (expected: >= 1)}) and no constructor's
 * {@link IllegalArgumentException} escapes. A key that only the policy not selected reads is rejected, so that a
 * setting never silently does nothing.
 */
final class HealthSettingsValidator {

    private static final String PASSIVE = "observatory.passive.";
    private static final String AVAILABILITY = "observatory.availability.";

    /** What {@code expected-status} accepts, as error lines say it. */
    static final String EXPECTED_STATUS =
            "any, or HTTP statuses 100-599 as N, N-M or a /-separated list, e.g. 204, 200-299, 200/204/301-399";

    private static final String HEALTHY_OR_PANIC = "healthy-or-panic";
    private static final String HEALTHY_AND_UNKNOWN = "healthy-and-unknown";

    private HealthSettingsValidator() {
    }

    /**
     * Validates an observer's active check.
     *
     * @param prefix the observer's section with a trailing dot, e.g. {@code observatory.standard.}
     * @throws InvalidConfigException for a status list that does not parse or a threshold below 1
     */
    static ActiveCheck activeCheck(String prefix, String expectedStatus, int healthyThreshold,
            int unhealthyThreshold) {
        ExpectedStatus status = expectedStatus(prefix + "expected-status", expectedStatus);
        return new ActiveCheck(status, new ActiveHealthPolicy(
                ConfigChecks.atLeast(prefix + "healthy-threshold", healthyThreshold, 1),
                ConfigChecks.atLeast(prefix + "unhealthy-threshold", unhealthyThreshold, 1)));
    }

    /**
     * Validates {@code observatory.burst.max-failure-ratio}: unset (empty) or a decimal from 0 to 1.
     *
     * @throws InvalidConfigException for a value outside [0, 1] or NaN
     */
    static OptionalDouble maxFailureRatio(String property, Double ratio) {
        if (ratio == null) {
            return OptionalDouble.empty();
        }
        if (!(ratio >= 0 && ratio <= 1)) {
            throw new InvalidConfigException(property, ConfigChecks.decimal(ratio), ">= 0 and <= 1");
        }
        return OptionalDouble.of(ratio);
    }

    /**
     * Validates {@code observatory.passive}, applying the selected policy's defaults (silky's ceiling 3; YARP's 60s
     * window, 10 calls, 0.3, 60s reactivation).
     *
     * @param warnings receives a line when a set reactivation period is raised to the detection window
     * @throws InvalidConfigException for an unknown policy, a key of the other policy, or a value out of range, e.g.
     *     {@code observatory.passive.ceiling: 5 (expected: only with observatory.passive.policy consecutive-failures)}
     */
    static PassiveSettings passive(PassiveProperties passive, Consumer<String> warnings) {
        String policy = policyName(PASSIVE + "policy", passive.getPolicy(), TransportFailureRatePolicy.NAME,
                List.of(TransportFailureRatePolicy.NAME, ConsecutiveFailuresPolicy.NAME));
        boolean consecutive = policy.equals(ConsecutiveFailuresPolicy.NAME);
        String other = consecutive ? TransportFailureRatePolicy.NAME : ConsecutiveFailuresPolicy.NAME;
        if (consecutive) {
            notSet(PASSIVE + "detection-window", passive.getDetectionWindow(), other);
            notSet(PASSIVE + "minimal-total-count", passive.getMinimalTotalCount(), other);
            notSet(PASSIVE + "failure-rate-limit", passive.getFailureRateLimit(), other);
        } else {
            notSet(PASSIVE + "ceiling", passive.getCeiling(), other);
        }
        PassivePolicy<?> selected = consecutive ? consecutiveFailures(passive) : transportFailureRate(passive);
        if (passive.getReactivationPeriod() != null
                && selected.effectiveReactivationPeriod().compareTo(passive.getReactivationPeriod()) > 0) {
            warnings.accept(PASSIVE + "reactivation-period: " + GoDuration.format(passive.getReactivationPeriod())
                    + " is shorter than the detection window, "
                    + GoDuration.format(selected.effectiveReactivationPeriod()) + " is applied");
        }
        return new PassiveSettings(selected);
    }

    /**
     * Validates {@code observatory.availability}.
     *
     * @throws InvalidConfigException for an unknown policy, a panic threshold outside 0-100, or one set with
     *     healthy-and-unknown (which has no panic)
     */
    static AvailabilitySettings availability(AvailabilityProperties availability) {
        String policy = policyName(AVAILABILITY + "policy", availability.getPolicy(), HEALTHY_OR_PANIC,
                List.of(HEALTHY_OR_PANIC, HEALTHY_AND_UNKNOWN));
        Integer threshold = availability.getPanicThreshold();
        if (policy.equals(HEALTHY_AND_UNKNOWN)) {
            notSet(AVAILABILITY + "panic-threshold", threshold, HEALTHY_OR_PANIC);
            return new AvailabilitySettings(AvailabilityPolicy.HEALTHY_AND_UNKNOWN,
                    AvailabilitySettings.DEFAULT.panicThresholdPercent());
        }
        if (threshold == null) {
            return AvailabilitySettings.DEFAULT;
        }
        if (threshold < 0 || threshold > 100) {
            throw new InvalidConfigException(AVAILABILITY + "panic-threshold", threshold.toString(), "0-100");
        }
        return new AvailabilitySettings(AvailabilityPolicy.HEALTHY_OR_PANIC, threshold);
    }

    private static ConsecutiveFailuresPolicy consecutiveFailures(PassiveProperties passive) {
        ConsecutiveFailuresPolicy defaults = ConsecutiveFailuresPolicy.DEFAULT;
        int ceiling = passive.getCeiling() == null ? defaults.ceiling()
                : ConfigChecks.atLeast(PASSIVE + "ceiling", passive.getCeiling(), 0);
        return new ConsecutiveFailuresPolicy(ceiling,
                reactivationPeriod(passive.getReactivationPeriod(), defaults.reactivationPeriod()));
    }

    private static TransportFailureRatePolicy transportFailureRate(PassiveProperties passive) {
        TransportFailureRatePolicy defaults = TransportFailureRatePolicy.DEFAULT;
        Duration window = passive.getDetectionWindow();
        if (window == null) {
            window = defaults.detectionWindow();
        } else if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.getNano() != 0) {
            throw new InvalidConfigException(PASSIVE + "detection-window", GoDuration.format(window),
                    "a whole number of seconds, >= 1s");
        }
        int minimalTotalCount = passive.getMinimalTotalCount() == null ? defaults.minimalTotalCount()
                : ConfigChecks.atLeast(PASSIVE + "minimal-total-count", passive.getMinimalTotalCount(), 1);
        Double limit = passive.getFailureRateLimit();
        if (limit == null) {
            limit = defaults.failureRateLimit();
        } else if (!(limit > 0 && limit <= 1)) {
            throw new InvalidConfigException(PASSIVE + "failure-rate-limit", ConfigChecks.decimal(limit),
                    "> 0 and <= 1");
        }
        return new TransportFailureRatePolicy(window, minimalTotalCount, limit,
                reactivationPeriod(passive.getReactivationPeriod(), defaults.reactivationPeriod()));
    }

    private static Duration reactivationPeriod(Duration period, Duration whenUnset) {
        if (period == null) {
            return whenUnset;
        }
        if (period.isNegative() || period.isZero()) {
            throw new InvalidConfigException(PASSIVE + "reactivation-period", GoDuration.format(period), "> 0");
        }
        return period;
    }

    private static ExpectedStatus expectedStatus(String property, String text) {
        if (text == null || text.strip().equalsIgnoreCase("any")) {
            return ExpectedStatus.ANY;
        }
        try {
            return ExpectedStatus.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(property, text, EXPECTED_STATUS);
        }
    }

    /**
     * The policy name, trimmed and in lower case; {@code null} means {@code whenUnset}.
     *
     * @throws InvalidConfigException naming the known policies when it is none of them
     */
    private static String policyName(String property, String name, String whenUnset, List<String> known) {
        if (name == null) {
            return whenUnset;
        }
        String normalized = name.strip().toLowerCase(Locale.ROOT);
        if (!known.contains(normalized)) {
            throw new InvalidConfigException(property, name, "one of " + String.join(", ", known));
        }
        return normalized;
    }

    /** Rejects a key that is set although only {@code policy}, which is not selected, reads it. */
    private static void notSet(String property, Object value, String policy) {
        if (value == null) {
            return;
        }
        String printed = value instanceof Duration duration ? GoDuration.format(duration)
                : value instanceof Double decimal ? ConfigChecks.decimal(decimal) : value.toString();
        String policyProperty = property.substring(0, property.lastIndexOf('.') + 1) + "policy";
        throw new InvalidConfigException(property, printed, "only with " + policyProperty + " " + policy);
    }
}
