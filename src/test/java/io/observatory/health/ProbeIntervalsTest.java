package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Envoy's choice of the next interval, row by row: state and run after the last probe → the wait. */
class ProbeIntervalsTest {

    private static final ProbeIntervals INTERVALS = new ProbeIntervals(
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Duration.ofMillis(250),
            Duration.ofMillis(500),
            Duration.ZERO,
            Duration.ZERO);

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("never probed", ActiveHealth.INITIAL, 1_000),
                Arguments.of(
                        "unknown, a success run below the healthy threshold", health(HealthState.UNKNOWN, 1, 0), 500),
                Arguments.of(
                        "unknown, a failure run below the unhealthy threshold", health(HealthState.UNKNOWN, 0, 2), 250),
                Arguments.of("healthy, succeeding", health(HealthState.HEALTHY, 7, 0), 1_000),
                Arguments.of("healthy, failing below the threshold", health(HealthState.HEALTHY, 0, 1), 250),
                Arguments.of("unhealthy, failing", health(HealthState.UNHEALTHY, 0, 9), 30_000),
                Arguments.of("unhealthy, succeeding below the threshold", health(HealthState.UNHEALTHY, 1, 0), 500),
                Arguments.of("degraded counts as not unhealthy", health(HealthState.DEGRADED, 3, 0), 500));
    }

    private static ActiveHealth health(HealthState state, int successes, int failures) {
        return new ActiveHealth(state, successes, failures);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void afterWhenHealthGivenThenEnvoysInterval(String name, ActiveHealth health, long expectedMillis) {
        assertThat(INTERVALS.after(health)).isEqualTo(Duration.ofMillis(expectedMillis));
    }

    @Test
    void newWhenIntervalZeroOrJitterNegativeThenRefusedNamingIt() {
        assertThatThrownBy(() -> new ProbeIntervals(
                        Duration.ofSeconds(1),
                        Duration.ZERO,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ZERO,
                        Duration.ZERO))
                .hasMessage("unhealthy: PT0S (expected: a positive duration)");
        assertThatThrownBy(() -> new ProbeIntervals(
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(-1),
                        Duration.ZERO))
                .hasMessage("initialJitter: PT-0.001S (expected: 0 or a positive duration)");
    }
}
