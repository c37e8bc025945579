package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PickSettingsTest {

    @Test
    void pickSettingsWhenStrategyMissingThenMessageListsTheStrategies() {
        assertThatThrownBy(() -> new PickSettings(null, "direct", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("strategy: (none) (expected: random, round-robin, least-ping, least-load)");
    }

    @ParameterizedTest(name = "fallback tag [{0}] -> [{1}], has fallback {2}")
    @CsvSource(
            nullValues = "NULL",
            value = {
                "NULL,   '',     false",
                "'',     '',     false",
                "direct, direct, true",
            })
    void pickSettingsWhenFallbackTagNullOrEmptyThenNoFallback(
            String fallbackTag, String expectedTag, boolean expectedHasFallback) {
        PickSettings settings = new PickSettings(BalancerStrategy.RANDOM, fallbackTag, null);

        assertThat(settings.fallbackTag()).isEqualTo(expectedTag);
        assertThat(settings.hasFallback()).isEqualTo(expectedHasFallback);
    }

    @Test
    void pickSettingsWhenLeastLoadSettingsMissingThenDefaults() {
        assertThat(new PickSettings(BalancerStrategy.LEAST_LOAD, "", null).leastLoad())
                .isEqualTo(LeastLoadSettings.DEFAULTS);
    }
}
