package io.observatory.pick;

/**
 * How one balancer picks: its strategy, its fallback tag and, for least-load, the strategy's settings.
 *
 * @param strategy the strategy, not {@code null}
 * @param fallbackTag the outbound used when the strategy chooses none; empty (or {@code null}) for none
 * @param leastLoad least-load's settings, ignored by the other strategies; {@code null} means
 *     {@link LeastLoadSettings#DEFAULTS}
 */
public record PickSettings(BalancerStrategy strategy, String fallbackTag, LeastLoadSettings leastLoad) {

    /**
     * @throws IllegalArgumentException when {@code strategy} is {@code null}:
     *     {@code strategy: (none) (expected: random, round-robin, least-ping, least-load)}
     */
    public PickSettings {
        if (strategy == null) {
            throw SettingMessages.invalid("strategy", "(none)", BalancerStrategy.NAMES);
        }
        fallbackTag = fallbackTag == null ? "" : fallbackTag;
        leastLoad = leastLoad == null ? LeastLoadSettings.DEFAULTS : leastLoad;
    }

    /** Returns whether a fallback tag is set. */
    public boolean hasFallback() {
        return !fallbackTag.isEmpty();
    }
}
