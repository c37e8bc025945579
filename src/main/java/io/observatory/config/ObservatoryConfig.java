package io.observatory.config;

import java.util.List;
import java.util.Optional;

/**
 * The whole validated configuration: outbounds, at most one observer, shared probe settings.
 *
 * @param outbounds every configured outbound, in configuration order, tags unique
 * @param standard the standard observer's settings, when configured
 * @param burst the burst observer's settings, when configured (never together with {@code standard})
 * @param probe settings shared by all probes
 */
public record ObservatoryConfig(
        List<Outbound> outbounds,
        Optional<StandardObserverSettings> standard,
        Optional<BurstObserverSettings> burst,
        ProbeSettings probe) {

    public ObservatoryConfig {
        outbounds = List.copyOf(outbounds);
    }
}
