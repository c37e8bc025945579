package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.Configs;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReloadSettingsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"0s", "1ns", "99ms", "1h0m1s", "-5s"})
    void bindWhenIntervalOutsideItsRangeThenOneLine(String interval) {
        assertThat(Configs.rejection("reload.interval=" + interval))
                .endsWith(" (expected: a duration from 100ms up to 1h0m0s)")
                .startsWith("observatory.reload.interval: ");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"100ms, 100", "5s, 5000", "1h, 3600000"})
    void bindWhenIntervalInRangeThenKept(String interval, long millis) {
        assertThat(Configs.of("reload.interval=" + interval).reload().interval())
                .isEqualTo(Duration.ofMillis(millis));
    }
}
