package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.text.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LeastLoadSettingsTest {

    private static LeastLoadSettings withExpected(int expected) {
        return new LeastLoadSettings(expected, Duration.ZERO, 0, List.of(), List.of());
    }

    private static LeastLoadSettings withMaxRtt(Duration maxRtt) {
        return new LeastLoadSettings(0, maxRtt, 0, List.of(), List.of());
    }

    private static LeastLoadSettings withTolerance(double tolerance) {
        return new LeastLoadSettings(0, Duration.ZERO, tolerance, List.of(), List.of());
    }

    private static LeastLoadSettings withBaselines(List<Duration> baselines) {
        return new LeastLoadSettings(0, Duration.ZERO, 0, baselines, List.of());
    }

    private static LeastLoadSettings withCosts(List<CostWeight> costs) {
        return new LeastLoadSettings(0, Duration.ZERO, 0, List.of(), costs);
    }

    @Test
    void leastLoadSettingsWhenDefaultsThenXrayDefaults() {
        assertThat(LeastLoadSettings.DEFAULTS).isEqualTo(new LeastLoadSettings(0, null, 0, null, null));
        assertThat(LeastLoadSettings.DEFAULTS.maxRtt()).isZero();
        assertThat(LeastLoadSettings.DEFAULTS.baselines()).isEmpty();
        assertThat(LeastLoadSettings.DEFAULTS.costs()).isEmpty();
    }

    @ParameterizedTest(name = "expected {0}")
    @ValueSource(ints = {0, 1, 1_000})
    void leastLoadSettingsWhenExpectedZeroOrMoreThenAccepted(int expected) {
        assertThat(withExpected(expected).expected()).isEqualTo(expected);
    }

    @Test
    void leastLoadSettingsWhenExpectedNegativeThenRejected() {
        assertThatThrownBy(() -> withExpected(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected: -1 (expected: >= 0)");
    }

    @ParameterizedTest(name = "max-rtt {0}")
    @ValueSource(strings = {"0s", "1ns", "1s", "2h45m"})
    void leastLoadSettingsWhenMaxRttZeroOrMoreThenAccepted(String maxRtt) {
        assertThat(withMaxRtt(GoDuration.parse(maxRtt)).maxRtt()).isEqualTo(GoDuration.parse(maxRtt));
    }

    @ParameterizedTest(name = "max-rtt {0}")
    @ValueSource(strings = {"-1s", "-1ns", "-1.5s"})
    void leastLoadSettingsWhenMaxRttNegativeThenRejected(String maxRtt) {
        assertThatThrownBy(() -> withMaxRtt(GoDuration.parse(maxRtt)))
                .hasMessage("max-rtt: " + maxRtt + " (expected: >= 0)");
    }

    @ParameterizedTest(name = "tolerance {0}")
    @ValueSource(doubles = {0, 0.5, 1})
    void leastLoadSettingsWhenToleranceWithinZeroToOneThenAccepted(double tolerance) {
        assertThat(withTolerance(tolerance).tolerance()).isEqualTo(tolerance);
    }

    @ParameterizedTest(name = "tolerance {0}")
    @CsvSource({
        "1.5,       1.5",
        "1.0000001, 1.0000001",
        "-0.1,      -0.1",
        "NaN,       NaN",
        "Infinity,  Infinity",
    })
    void leastLoadSettingsWhenToleranceOutsideZeroToOneThenRejected(double tolerance, String shown) {
        assertThatThrownBy(() -> withTolerance(tolerance)).hasMessage("tolerance: " + shown + " (expected: 0-1)");
    }

    @Test
    void leastLoadSettingsWhenBaselinesPositiveThenAcceptedInOrder() {
        List<Duration> baselines = List.of(Duration.ofMillis(100), Duration.ofNanos(1), Duration.ofSeconds(2));

        assertThat(withBaselines(baselines).baselines()).isEqualTo(baselines);
    }

    @ParameterizedTest(name = "baseline {0}")
    @ValueSource(strings = {"0s", "-1ms"})
    void leastLoadSettingsWhenBaselineNotPositiveThenRejected(String baseline) {
        List<Duration> baselines = List.of(Duration.ofMillis(100), GoDuration.parse(baseline));

        assertThatThrownBy(() -> withBaselines(baselines))
                .hasMessage("baselines: " + baseline + " (expected: durations > 0)");
    }

    @Test
    void leastLoadSettingsWhenBaselineMissingThenRejected() {
        assertThatThrownBy(() -> withBaselines(Collections.singletonList(null)))
                .hasMessage("baselines: (none) (expected: durations > 0)");
    }

    @Test
    void leastLoadSettingsWhenMoreThan64BaselinesThenRejected() {
        assertThat(withBaselines(Collections.nCopies(64, Duration.ofMillis(1))).baselines())
                .hasSize(64);
        assertThatThrownBy(() -> withBaselines(Collections.nCopies(65, Duration.ofMillis(1))))
                .hasMessage("baselines: 65 durations (expected: at most 64)");
    }

    @Test
    void leastLoadSettingsWhenMoreThan64CostsThenRejected() {
        CostWeight cost = new CostWeight("eu", false, 2);

        assertThat(withCosts(Collections.nCopies(64, cost)).costs()).hasSize(64);
        assertThatThrownBy(() -> withCosts(Collections.nCopies(65, cost)))
                .hasMessage("costs: 65 entries (expected: at most 64)");
    }

    @Test
    void leastLoadSettingsWhenCostMissingThenRejected() {
        assertThatThrownBy(() -> withCosts(Collections.singletonList(null)))
                .hasMessage("costs: (none) (expected: cost weights with a match)");
    }

    @Test
    void leastLoadSettingsWhenCallerChangesItsListsThenSettingsUnchanged() {
        List<Duration> baselines = new ArrayList<>(List.of(Duration.ofMillis(100)));
        List<CostWeight> costs = new ArrayList<>(List.of(new CostWeight("eu", false, 2)));
        LeastLoadSettings settings = new LeastLoadSettings(1, Duration.ZERO, 0, baselines, costs);

        baselines.clear();
        costs.clear();

        assertThat(settings.baselines()).containsExactly(Duration.ofMillis(100));
        assertThat(settings.costs()).containsExactly(new CostWeight("eu", false, 2));
    }
}
