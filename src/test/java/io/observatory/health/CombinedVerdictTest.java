package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CombinedVerdictTest {

    @ParameterizedTest(name = "active {0}, passive {1} -> {2}")
    @CsvSource({
            "UNKNOWN,   UNKNOWN,   UNKNOWN",
            "HEALTHY,   UNKNOWN,   HEALTHY",
            "UNKNOWN,   HEALTHY,   HEALTHY",
            "HEALTHY,   HEALTHY,   HEALTHY",
            "UNHEALTHY, UNKNOWN,   UNHEALTHY",
            "UNKNOWN,   UNHEALTHY, UNHEALTHY",
            "UNHEALTHY, HEALTHY,   UNHEALTHY",
            "HEALTHY,   UNHEALTHY, UNHEALTHY",
            "UNHEALTHY, UNHEALTHY, UNHEALTHY",
    })
    void ofIsUnhealthyIfAnyCheckSaysSo(HealthState active, HealthState passive, HealthState expected) {
        assertThat(CombinedVerdict.of(active, passive)).isEqualTo(expected);
    }
}
