package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class BalancerStrategyTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "random,      RANDOM",
        "round-robin, ROUND_ROBIN",
        "least-ping,  LEAST_PING",
        "least-load,  LEAST_LOAD",
    })
    void fromNameWhenKebabCaseNameThenStrategyWithThatName(String name, BalancerStrategy expected) {
        assertThat(BalancerStrategy.fromName(name)).isEqualTo(expected);
        assertThat(expected.strategyName()).isEqualTo(name);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"fastest", "leastPing", "roundRobin", "leastload", "Random", " random", ""})
    void fromNameWhenUnknownNameThenMessageQuotesItAndListsTheNames(String name) {
        assertThatThrownBy(() -> BalancerStrategy.fromName(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strategy: \"" + name + "\" (expected: random, round-robin, least-ping, least-load)");
    }

    @ParameterizedTest
    @NullSource
    void fromNameWhenNullThenMessageSaysNone(String name) {
        assertThatThrownBy(() -> BalancerStrategy.fromName(name))
                .hasMessage("strategy: (none) (expected: random, round-robin, least-ping, least-load)");
    }
}
