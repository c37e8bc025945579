package io.observatory.pick;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a balancer chooses among its candidates: Xray's four balancer strategy types, named in kebab-case.
 */
public enum BalancerStrategy {

    /** Uniformly at random (Xray {@code random}, {@code app/router/strategy_random.go}). */
    RANDOM("random"),

    /** In turn, by tag order (Xray {@code roundRobin}, {@code app/router/balancing.go}). */
    ROUND_ROBIN("round-robin"),

    /** The smallest delay (Xray {@code leastPing}, {@code app/router/strategy_leastping.go}). */
    LEAST_PING("least-ping"),

    /** At random among the steadiest few (Xray {@code leastLoad}, {@code app/router/strategy_leastload.go}). */
    LEAST_LOAD("least-load");

    /** The strategy names, comma-separated, as error messages list them. */
    static final String NAMES =
            Arrays.stream(values()).map(BalancerStrategy::strategyName).collect(Collectors.joining(", "));

    private final String strategyName;

    BalancerStrategy(String strategyName) {
        this.strategyName = strategyName;
    }

    /** Returns the name clients select this strategy with, e.g. {@code least-load}. */
    public String strategyName() {
        return strategyName;
    }

    /**
     * Returns the strategy with exactly this name (case-sensitive, kebab-case; Xray's camel-case names such as
     * {@code leastPing} are not accepted).
     *
     * @param name {@code random}, {@code round-robin}, {@code least-ping} or {@code least-load}
     * @throws IllegalArgumentException for any other name or {@code null}, e.g.
     *     {@code strategy: "fastest" (expected: random, round-robin, least-ping, least-load)}
     */
    public static BalancerStrategy fromName(String name) {
        return Arrays.stream(values())
                .filter(strategy -> strategy.strategyName.equals(name))
                .findFirst()
                .orElseThrow(() -> SettingMessages.invalid("strategy", SettingMessages.quoted(name), NAMES));
    }
}
