package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.CombinedVerdict.Change;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CombinedVerdictTest {

    @ParameterizedTest(name = "active {0}, passive {1}, mesh {2} -> {3}")
    @CsvSource({
        "UNKNOWN,   UNKNOWN,   UNKNOWN,   UNKNOWN",
        "HEALTHY,   UNKNOWN,   UNKNOWN,   HEALTHY",
        "UNKNOWN,   HEALTHY,   UNKNOWN,   HEALTHY",
        "UNKNOWN,   UNKNOWN,   HEALTHY,   HEALTHY",
        "HEALTHY,   HEALTHY,   HEALTHY,   HEALTHY",
        "HEALTHY,   UNHEALTHY, UNKNOWN,   UNHEALTHY",
        "UNHEALTHY, HEALTHY,   UNKNOWN,   UNHEALTHY",
        "UNHEALTHY, UNKNOWN,   UNKNOWN,   UNHEALTHY",
        "UNKNOWN,   UNHEALTHY, UNKNOWN,   UNHEALTHY",
        "HEALTHY,   HEALTHY,   UNHEALTHY, UNHEALTHY",
        "HEALTHY,   HEALTHY,   DEGRADED,  DEGRADED",
        "UNKNOWN,   UNKNOWN,   DEGRADED,  DEGRADED",
        "UNHEALTHY, UNKNOWN,   DEGRADED,  UNHEALTHY",
        "DEGRADED,  UNHEALTHY, HEALTHY,   UNHEALTHY",
    })
    void ofWhenStatesCombineThenUnhealthyWinsThenDegradedThenHealthy(
            HealthState active, HealthState passive, HealthState mesh, HealthState verdict) {
        assertThat(CombinedVerdict.of(active, passive, mesh)).isEqualTo(verdict);
    }

    @ParameterizedTest(name = "{0}/{1} -> {2}/{3}: {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                "HEALTHY   | UNKNOWN   | UNHEALTHY | UNKNOWN   | active healthy -> unhealthy: why active",
                "HEALTHY   | UNKNOWN   | HEALTHY   | UNHEALTHY | passive unknown -> unhealthy: why passive",
                "HEALTHY   | HEALTHY   | UNHEALTHY | UNHEALTHY | active healthy -> unhealthy: why active; passive healthy -> "
                        + "unhealthy: why passive",
                "UNHEALTHY | UNHEALTHY | UNHEALTHY | UNKNOWN   | passive unhealthy -> unknown: why passive",
                "HEALTHY   | UNKNOWN   | UNKNOWN   | UNKNOWN   | active healthy -> unknown: why active",
            })
    void changeReasonWhenAStateChangesThenNamesWhatChangedAndWhy(
            HealthState activeBefore,
            HealthState passiveBefore,
            HealthState active,
            HealthState passive,
            String reason) {
        assertThat(CombinedVerdict.changeReason(List.of(
                        new Change("active", activeBefore, active, () -> "why active"),
                        new Change("passive", passiveBefore, passive, () -> "why passive"),
                        new Change("mesh", HealthState.UNKNOWN, HealthState.UNKNOWN, () -> "why mesh"))))
                .isEqualTo(reason);
    }

    @Test
    void changeReasonWhenTheMeshStateChangesThenNamesItLast() {
        assertThat(CombinedVerdict.changeReason(List.of(
                        new Change("active", HealthState.HEALTHY, HealthState.UNHEALTHY, () -> "probe failed"),
                        new Change("mesh", HealthState.HEALTHY, HealthState.DEGRADED, () -> "pair cut"))))
                .isEqualTo("active healthy -> unhealthy: probe failed; mesh healthy -> degraded: pair cut");
    }

    @Test
    void changeReasonWhenNoStateChangesThenNullAndNoEvidenceAsked() {
        assertThat(CombinedVerdict.changeReason(List.of(
                        new Change("active", HealthState.HEALTHY, HealthState.HEALTHY, () -> {
                            throw new AssertionError("active evidence asked without an active change");
                        }),
                        new Change("passive", HealthState.UNKNOWN, HealthState.UNKNOWN, () -> {
                            throw new AssertionError("passive evidence asked without a passive change");
                        }))))
                .isNull();
    }
}
