package io.observatory.health;

import java.time.Duration;
import java.util.Objects;

/**
 * When the next probe of one outbound is due, from its active health: Envoy's choice of interval
 * ({@code HealthCheckerImplBase::interval}, {@code source/common/upstream/health_checker_impl.cc}). While a
 * transition is pending — a run of failures of an outbound that is not unhealthy yet, or a run of successes of one
 * that is not healthy yet — the edge intervals apply (HAProxy's {@code fastinter}); an unhealthy outbound without a
 * pending transition waits {@link #unhealthy()} (HAProxy's {@code downinter}); every other one {@link #healthy()}.
 * An outbound never probed is due after a random share of {@link #initialJitter()}, and {@link #intervalJitter()}
 * only ever lengthens a wait (as in Envoy). Immutable.
 *
 * <p>Two differences from Envoy, both about new hosts: an outbound here starts UNKNOWN, so any run of its first
 * probes is a pending transition and uses an edge interval (Envoy starts a new host as failed, so its failures wait
 * {@code unhealthy_interval}, and marks it healthy at its first success whatever the threshold); and there is no
 * {@code no_traffic_interval}, since the observer does not see the traffic.
 *
 * @param healthy             the interval of an outbound that is healthy or unknown with nothing pending (Envoy's
 *                            {@code interval}), positive
 * @param unhealthy           the interval of an unhealthy outbound with nothing pending (Envoy's
 *                            {@code unhealthy_interval}), positive
 * @param unhealthyEdge       the interval while a failure run has not reached the unhealthy threshold yet (Envoy's
 *                            {@code unhealthy_edge_interval}), positive
 * @param healthyEdge         the interval while a success run has not reached the healthy threshold yet (Envoy's
 *                            {@code healthy_edge_interval}), positive
 * @param initialJitter       the first probe of an outbound is due after a uniformly random time in [0, this), zero
 *                            for at once (Envoy's {@code initial_jitter})
 * @param intervalJitter      each later wait is lengthened by a uniformly random time in [0, this), zero for none
 *                            (Envoy's {@code interval_jitter})
 */
public record ProbeIntervals(
        Duration healthy,
        Duration unhealthy,
        Duration unhealthyEdge,
        Duration healthyEdge,
        Duration initialJitter,
        Duration intervalJitter) {

    /**
     * @throws IllegalArgumentException when an interval is not positive or a jitter is negative
     */
    public ProbeIntervals {
        requirePositive("healthy", healthy);
        requirePositive("unhealthy", unhealthy);
        requirePositive("unhealthyEdge", unhealthyEdge);
        requirePositive("healthyEdge", healthyEdge);
        requireNotNegative("initialJitter", initialJitter);
        requireNotNegative("intervalJitter", intervalJitter);
    }

    private static void requirePositive(String name, Duration value) {
        if (Objects.requireNonNull(value, name).isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: a positive duration)");
        }
    }

    private static void requireNotNegative(String name, Duration value) {
        if (Objects.requireNonNull(value, name).isNegative()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: 0 or a positive duration)");
        }
    }

    /**
     * The wait before the next probe of an outbound whose health after its last probe is {@code health}, before
     * jitter.
     */
    public Duration after(ActiveHealth health) {
        if (health.consecutiveFailures() > 0 && health.state() != HealthState.UNHEALTHY) {
            return unhealthyEdge;
        }
        if (health.consecutiveSuccesses() > 0 && health.state() != HealthState.HEALTHY) {
            return healthyEdge;
        }
        return health.state() == HealthState.UNHEALTHY ? unhealthy : healthy;
    }
}
