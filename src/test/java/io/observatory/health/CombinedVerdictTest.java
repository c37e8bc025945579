package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CombinedVerdictTest {

    @ParameterizedTest(name = "active {0}, passive {1} -> {2}")
    @CsvSource({
        "UNKNOWN,   UNKNOWN,   UNKNOWN",
        "HEALTHY,   UNKNOWN,   HEALTHY",
        "UNKNOWN,   HEALTHY,   HEALTHY",
        "HEALTHY,   HEALTHY,   HEALTHY",
        "HEALTHY,   UNHEALTHY, UNHEALTHY",
        "UNHEALTHY, HEALTHY,   UNHEALTHY",
        "UNHEALTHY, UNKNOWN,   UNHEALTHY",
        "UNKNOWN,   UNHEALTHY, UNHEALTHY",
        "UNHEALTHY, UNHEALTHY, UNHEALTHY",
    })
    void ofWhenStatesCombineThenUnhealthyWinsThenHealthy(HealthState active, HealthState passive,
            HealthState verdict) {
        assertThat(CombinedVerdict.of(active, passive)).isEqualTo(verdict);
    }

    @ParameterizedTest(name = "{0}/{1} -> {2}/{3}: {4}")
    @CsvSource(delimiter = '|', value = {
        "HEALTHY   | UNKNOWN   | UNHEALTHY | UNKNOWN   | active healthy -> unhealthy: why active",
        "HEALTHY   | UNKNOWN   | HEALTHY   | UNHEALTHY | passive unknown -> unhealthy: why passive",
        "HEALTHY   | HEALTHY   | UNHEALTHY | UNHEALTHY | active healthy -> unhealthy: why active; passive healthy -> "
                + "unhealthy: why passive",
        "UNHEALTHY | UNHEALTHY | UNHEALTHY | UNKNOWN   | passive unhealthy -> unknown: why passive",
        "HEALTHY   | UNKNOWN   | UNKNOWN   | UNKNOWN   | active healthy -> unknown: why active",
    })
    void changeReasonWhenAStateChangesThenNamesWhatChangedAndWhy(HealthState activeBefore,
            HealthState passiveBefore, HealthState active, HealthState passive, String reason) {
        assertThat(CombinedVerdict.changeReason(activeBefore, active, () -> "why active", passiveBefore, passive,
                () -> "why passive")).isEqualTo(reason);
    }

    @Test
    void changeReasonWhenNoStateChangesThenNullAndNoEvidenceAsked() {
        assertThat(CombinedVerdict.changeReason(HealthState.HEALTHY, HealthState.HEALTHY, () -> {
            throw new AssertionError("active evidence asked without an active change");
        }, HealthState.UNKNOWN, HealthState.UNKNOWN, () -> {
            throw new AssertionError("passive evidence asked without a passive change");
        })).isNull();
    }
}
