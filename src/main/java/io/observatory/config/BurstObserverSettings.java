package io.observatory.config;

import io.observatory.health.ActiveCheck;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Validated settings of the burst observer (Xray "burstObservatory").
 *
 * @param subjectSelector tag prefixes; empty means the observer never starts (Xray lazy start)
 * @param pingConfig sampling schedule and probe settings
 * @param activeCheck how samples are judged (expected status) and how many consecutive window evaluations move the
 *     active state; {@link ActiveCheck#DEFAULT} = Xray
 * @param maxFailureRatio failed/all over the valid samples above which the outbound is unhealthy, in [0, 1]; empty
 *     (the default) keeps only Xray's rule (at least one valid success)
 */
public record BurstObserverSettings(List<String> subjectSelector, PingConfig pingConfig, ActiveCheck activeCheck,
        OptionalDouble maxFailureRatio) {

    public BurstObserverSettings {
        subjectSelector = List.copyOf(subjectSelector);
        Objects.requireNonNull(pingConfig, "pingConfig");
        Objects.requireNonNull(activeCheck, "activeCheck");
        Objects.requireNonNull(maxFailureRatio, "maxFailureRatio");
    }
}
