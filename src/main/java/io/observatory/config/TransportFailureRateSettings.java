package io.observatory.config;

import io.observatory.health.TransportFailureRatePolicy;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.passive.transport-failure-rate}: YARP's {@code TransportFailureRate} passive policy (see
 * {@link TransportFailureRatePolicy}); only transport failures count as failed, every reported call counts toward
 * the total.
 *
 * @param detectionWindow    length of the sliding window of reported calls, counted in 1 s buckets; a whole number
 *                           of seconds, at least 1s, e.g. 60s or 2m. Default: 60s
 * @param minimalTotalCount  calls the window must hold before the failure rate is judged, at least 1; with fewer the
 *                           previous state stays. Default: 10
 * @param failureRateLimit   share of transport failures among the window's calls (failed / total) at and above which
 *                           an outbound is unhealthy; greater than 0, at most 1. Default: 0.3
 * @param reactivationPeriod time after an outbound became unhealthy before its passive state returns to unknown, a
 *                           positive duration; the period applied is never shorter than the detection window (so the
 *                           failures that caused it have left the window): a shorter one is raised to it, with a
 *                           warning when set. Default: 60s
 */
public record TransportFailureRateSettings(
        @DefaultValue("60s") Duration detectionWindow,

        @DefaultValue("10") @Min(value = 1, message = ">= 1")
        int minimalTotalCount,

        @DefaultValue("0.3")
        @DecimalMin(value = "0", inclusive = false, message = LIMIT)
        @DecimalMax(value = "1", message = LIMIT)
        double failureRateLimit,

        @DefaultValue("60s") @DurationMin(nanos = 0, inclusive = false, message = "> 0")
        Duration reactivationPeriod)
        implements Checked {

    private static final String LIMIT = "> 0 and <= 1";

    /** The policy's defaults, as bound from no properties at all. */
    static final TransportFailureRateSettings DEFAULTS =
            ObservatoryConfigBinder.defaults(TransportFailureRateSettings.class);

    // A whole number of seconds is what getNano() tells.
    @SuppressWarnings("JavaDurationGetSecondsGetNano")
    @Override
    public void check(Problems problems) {
        if (detectionWindow.compareTo(Duration.ofSeconds(1)) < 0 || detectionWindow.getNano() != 0) {
            problems.reject("detection-window", "a whole number of seconds, >= 1s");
        }
    }

    /** The policy with these parameters. */
    public TransportFailureRatePolicy policy() {
        return new TransportFailureRatePolicy(detectionWindow, minimalTotalCount, failureRateLimit, reactivationPeriod);
    }
}
