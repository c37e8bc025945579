package io.observatory.pick;

import io.observatory.stats.HealthPingStats;
import org.jspecify.annotations.Nullable;

/**
 * One outbound a balancer may pick, as the observation shows it; the caller has already left out outbounds that are
 * not available or were never probed.
 *
 * @param tag outbound tag
 * @param alive whether the outbound's last observation says it is usable
 * @param delayMillis Xray delay in ms ({@code 99_999_999} = dead)
 * @param healthPing burst statistics, or {@code null} for standard-observer outbounds
 */
public record PickCandidate(
        String tag,
        boolean alive,
        long delayMillis,
        @Nullable HealthPingStats healthPing) {}
