package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ActiveHealthPolicyTest {

    /** Probes as a string: {@code S} success, {@code F} failure, applied from {@link ActiveHealth#INITIAL}. */
    private static ActiveHealth run(ActiveHealthPolicy policy, String probes) {
        ActiveHealth health = ActiveHealth.INITIAL;
        for (char probe : probes.toCharArray()) {
            health = policy.next(health, probe == 'S');
        }
        return health;
    }

    @ParameterizedTest(name = "healthy {0}, unhealthy {1}: {2} -> {3}")
    @CsvSource({
        // Xray defaults: every probe decides
        "1, 1, '',     UNKNOWN,   0, 0",
        "1, 1, S,      HEALTHY,   1, 0",
        "1, 1, F,      UNHEALTHY, 0, 1",
        "1, 1, SF,     UNHEALTHY, 0, 1",
        "1, 1, FS,     HEALTHY,   1, 0",
        // healthy threshold 3: threshold - 1, threshold, beyond
        "3, 1, SS,     UNKNOWN,   2, 0",
        "3, 1, SSS,    HEALTHY,   3, 0",
        "3, 1, SSSS,   HEALTHY,   4, 0",
        // an interleaved failure resets the success run
        "3, 2, SSFSS,  UNKNOWN,   2, 0",
        "3, 2, SSFSSS, HEALTHY,   3, 0",
        // unhealthy threshold 3: threshold - 1 keeps the previous state, threshold flips it
        "1, 3, SFF,    HEALTHY,   0, 2",
        "1, 3, SFFF,   UNHEALTHY, 0, 3",
        "1, 3, FF,     UNKNOWN,   0, 2",
        "1, 3, FFF,    UNHEALTHY, 0, 3",
        // an interleaved success resets the failure run
        "1, 3, SFFSFF, HEALTHY,   0, 2",
        // below the healthy threshold an unhealthy outbound stays unhealthy
        "2, 1, FS,     UNHEALTHY, 1, 0",
        "2, 1, FSS,    HEALTHY,   2, 0",
        // below both thresholds a new outbound stays unknown
        "2, 2, SFSF,   UNKNOWN,   0, 1",
    })
    void nextFollowsThresholds(
            int healthy, int unhealthy, String probes, HealthState state, int successes, int failures) {
        ActiveHealth health = run(new ActiveHealthPolicy(healthy, unhealthy), probes);

        assertThat(health).isEqualTo(new ActiveHealth(state, successes, failures));
    }

    @Test
    void nextWhenRunIsAtMaxValueThenCounterSaturates() {
        ActiveHealth health = new ActiveHealth(HealthState.HEALTHY, Integer.MAX_VALUE, 0);

        assertThat(new ActiveHealthPolicy(1, 1).next(health, true).consecutiveSuccesses())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void activeHealthWhenBothRunsPositiveThenRejected() {
        assertThatThrownBy(() -> new ActiveHealth(HealthState.HEALTHY, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("consecutive successes/failures: 1/1 (expected: >= 0 and at most one of them > 0)");
    }
}
