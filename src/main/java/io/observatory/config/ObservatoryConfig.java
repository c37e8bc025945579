package io.observatory.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole validated configuration: outbounds, at most one observer, shared probe settings, health
 * verdict settings and API access.
 *
 * @param outbounds every configured outbound, in configuration order, tags unique
 * @param standard the standard observer's settings, when configured
 * @param burst the burst observer's settings, when configured (never together with {@code standard})
 * @param probe settings shared by all probes
 * @param passive the passive health policy judging reported call outcomes
 * @param availability how verdicts become the usable outbounds of a selection
 * @param apiAuth who may call the v1 API
 */
public record ObservatoryConfig(
        List<Outbound> outbounds,
        Optional<StandardObserverSettings> standard,
        Optional<BurstObserverSettings> burst,
        ProbeSettings probe,
        PassiveSettings passive,
        AvailabilitySettings availability,
        ApiAuthSettings apiAuth) {

    public ObservatoryConfig {
        outbounds = List.copyOf(outbounds);
        Objects.requireNonNull(passive, "passive");
        Objects.requireNonNull(availability, "availability");
        Objects.requireNonNull(apiAuth, "apiAuth");
    }
}
