package io.observatory.config;

import java.util.List;

/**
 * Validated settings of the burst observer (Xray "burstObservatory").
 *
 * @param subjectSelector tag prefixes; empty means the observer never starts (Xray lazy start)
 * @param pingConfig sampling schedule and probe settings
 */
public record BurstObserverSettings(List<String> subjectSelector, PingConfig pingConfig) {

    public BurstObserverSettings {
        subjectSelector = List.copyOf(subjectSelector);
    }
}
