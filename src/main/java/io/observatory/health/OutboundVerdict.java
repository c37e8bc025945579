package io.observatory.health;

import java.util.Objects;

/**
 * One outbound and its combined verdict, the unit an {@link AvailabilityPolicy} selects from.
 *
 * @param tag     the outbound's tag (Xray's outbound tag)
 * @param verdict its combined verdict, see {@link CombinedVerdict#of}
 */
public record OutboundVerdict(String tag, HealthState verdict) {

    /** @throws NullPointerException if an argument is null */
    public OutboundVerdict {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(verdict, "verdict");
    }
}
