package io.observatory.config;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.BurstWindowRule;
import io.observatory.health.ExpectedStatus;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.burst}: the burst observer (Xray "burstObservatory", {@code app/observatory/burst}).
 *
 * @param subjectSelector    tag prefixes choosing the outbounds to observe; an empty prefix selects every outbound
 *                           (as in Xray). Default: empty, and then nothing is probed (as in Xray)
 * @param pingConfig         sampling schedule and probe settings (Xray "pingConfig"). Required, as in Xray
 *                           ({@code infra/conf/observatory.go}); an empty section takes every default
 * @param expectedStatus     HTTP statuses that make a sample successful: any, one status (204), an inclusive range
 *                           (200-299) or a /-separated list of both (200/204/301-399), statuses 100-599; a response
 *                           with another status is a failed sample. Default: any (as in Xray)
 * @param healthyThreshold   consecutive evaluations of the sample window that find the outbound alive before it
 *                           becomes healthy, at least 1; the window is evaluated once per recorded sample or expiry.
 *                           Below it the previous state stays (a new outbound stays unknown). Default: 1 (as in Xray)
 * @param unhealthyThreshold consecutive evaluations of the sample window that find the outbound not alive before it
 *                           becomes unhealthy, at least 1. Default: 1 (as in Xray)
 * @param maxFailureRatio    share of failed samples among the valid ones (fail / all), 0-1, above which an outbound is
 *                           not alive even with a successful sample; applies in addition to Xray's rule (at least one
 *                           valid success). Default: unset, Xray's rule only
 */
public record BurstObserverSettings(
        @DefaultValue List<String> subjectSelector,

        @NotNull(message = REQUIRES_PING_CONFIG) @NestedConfigurationProperty
        PingConfig pingConfig,

        @DefaultValue("any") ExpectedStatus expectedStatus,
        @DefaultValue("1") @Min(value = 1, message = ">= 1") int healthyThreshold,
        @DefaultValue("1") @Min(value = 1, message = ">= 1") int unhealthyThreshold,

        @Nullable @DecimalMin(value = "0", message = RATIO) @DecimalMax(value = "1", message = RATIO)
        Double maxFailureRatio) {

    private static final String RATIO = ">= 0 and <= 1";

    /** Xray refuses a burst observer without one: "BurstObservatory requires a valid pingConfig". */
    private static final String REQUIRES_PING_CONFIG =
            "a ping-config section, as Xray requires; ping-config: {} takes every default";

    public BurstObserverSettings {
        subjectSelector = List.copyOf(subjectSelector);
    }

    /** How each change of an outbound's sample window is judged. */
    public BurstWindowRule windowRule() {
        return new BurstWindowRule(
                new ActiveCheck(expectedStatus, new ActiveHealthPolicy(healthyThreshold, unhealthyThreshold)),
                maxFailureRatio == null ? OptionalDouble.empty() : OptionalDouble.of(maxFailureRatio));
    }
}
