package io.observatory.pick;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the least-load strategy, as in Xray's {@code leastLoad} balancer settings
 * ({@code infra/conf/router_strategy.go}); where Xray silently clamps or drops a bad value, these reject it.
 *
 * @param expected how many of the best-ranked outbounds to keep; 0 (the default) keeps 1 without {@code baselines}
 *     and lets the baselines alone decide with them; at least 0
 * @param maxRtt outbounds whose delay is not below this (compared in whole milliseconds, as Xray does) are left out;
 *     0 (the default) leaves none out; at least 0; {@code null} means 0
 * @param tolerance largest accepted failure rate (failed / all burst samples), 0-1; 0 (the default) checks none
 * @param baselines cost limits tried in order until one keeps {@code expected} outbounds; each above 0; at most
 *     {@value #MAX_BASELINES}; {@code null} means none
 * @param costs weights for outbounds by tag, first match wins (see {@link CostWeight}); at most {@value #MAX_COSTS};
 *     {@code null} means none
 */
public record LeastLoadSettings(
        int expected, Duration maxRtt, double tolerance, List<Duration> baselines, List<CostWeight> costs) {

    /** The most baselines accepted. */
    public static final int MAX_BASELINES = 64;

    /** The most cost weights accepted. */
    public static final int MAX_COSTS = 64;

    /** Xray's defaults: keep the single best outbound, no RTT limit, no failure-rate limit, no baselines, no costs. */
    public static final LeastLoadSettings DEFAULTS = new LeastLoadSettings(0, Duration.ZERO, 0, List.of(), List.of());

    /**
     * Checks the settings and copies the lists.
     *
     * @throws IllegalArgumentException naming the field, the value and what is expected, e.g.
     *     {@code expected: -1 (expected: >= 0)}, {@code max-rtt: -1s (expected: >= 0)},
     *     {@code tolerance: 1.5 (expected: 0-1)}, {@code baselines: 0s (expected: durations > 0)},
     *     {@code costs: 65 entries (expected: at most 64)}
     */
    public LeastLoadSettings {
        if (expected < 0) {
            throw SettingMessages.invalid("expected", String.valueOf(expected), ">= 0");
        }
        maxRtt = maxRtt == null ? Duration.ZERO : maxRtt;
        if (maxRtt.isNegative()) {
            throw SettingMessages.invalid("max-rtt", SettingMessages.duration(maxRtt), ">= 0");
        }
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw SettingMessages.invalid("tolerance", String.valueOf(tolerance), "0-1");
        }
        baselines = baselines == null ? List.of() : baselines;
        if (baselines.size() > MAX_BASELINES) {
            throw SettingMessages.invalid("baselines", baselines.size() + " durations", "at most " + MAX_BASELINES);
        }
        for (Duration baseline : baselines) {
            if (baseline == null || baseline.isNegative() || baseline.isZero()) {
                throw SettingMessages.invalid("baselines", SettingMessages.duration(baseline), "durations > 0");
            }
        }
        baselines = List.copyOf(baselines);
        costs = costs == null ? List.of() : costs;
        if (costs.size() > MAX_COSTS) {
            throw SettingMessages.invalid("costs", costs.size() + " entries", "at most " + MAX_COSTS);
        }
        if (costs.stream().anyMatch(Objects::isNull)) {
            throw SettingMessages.invalid("costs", "(none)", "cost weights with a match");
        }
        costs = List.copyOf(costs);
    }
}
