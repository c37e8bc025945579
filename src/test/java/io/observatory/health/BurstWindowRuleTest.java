package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.stats.HealthPingStats;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BurstWindowRuleTest {

    private static BurstWindowRule rule(int healthyThreshold, int unhealthyThreshold, Double maxFailureRatio) {
        return new BurstWindowRule(
                new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(healthyThreshold, unhealthyThreshold)),
                maxFailureRatio == null ? OptionalDouble.empty() : OptionalDouble.of(maxFailureRatio));
    }

    @ParameterizedTest(name = "{0}/{1} failed, max {2} -> passes {3}")
    @CsvSource({
        "0, 0, , false",
        "4, 4, , false",
        "4, 3, , true",
        "10, 3, 0.3, true",
        "10, 4, 0.3, false",
        "10, 0, 0.0, true",
        "10, 1, 0.0, false",
        "10, 9, 1.0, true",
    })
    void passesWhenRatioAtOrBelowMaximumAndOneSuccess(int all, int fail, Double max, boolean passes) {
        assertThat(rule(1, 1, max).passes(new HealthPingStats(all, fail, 0, 0, 0, 0)))
                .isEqualTo(passes);
    }

    @ParameterizedTest(name = "{0}/{1} failed, max {2}: {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                "0  | 0 |     | no valid sample left",
                "4  | 4 |     | 4/4 samples failed",
                "3  | 2 |     | 2/3 samples failed, average 61 ms",
                "10 | 4 | 0.3 | 4/10 samples failed (max-failure-ratio 0.3), average 61 ms",
                "10 | 10 | 0.3 | 10/10 samples failed (max-failure-ratio 0.3)",
                "10 | 3 | 0.3 | 3/10 samples failed (max-failure-ratio 0.3), average 61 ms"
            })
    void describeWhenWindowThenOneLineWithTheRatioAndAverage(int all, int fail, Double max, String line) {
        HealthPingStats stats = new HealthPingStats(all, fail, 0, all > fail ? 61_999_999 : 0, 0, 0);

        assertThat(rule(1, 1, max).describe(stats)).isEqualTo(line);
    }

    @Test
    void judgeWhenWindowFailsBelowTheThresholdThenPreviousStateStaysAndDetailNamesLastFailure() {
        HealthPingStats failing = new HealthPingStats(2, 2, 0, 0, 0, 0);
        ActiveHealth healthy = new ActiveHealth(HealthState.HEALTHY, 3, 0);

        BurstWindowRule.Judgement judgement = rule(1, 2, null).judge(healthy, failing, "connection refused");

        assertThat(judgement.active()).isEqualTo(new ActiveHealth(HealthState.HEALTHY, 0, 1));
        assertThat(judgement.detail()).isEqualTo("2/2 samples failed; last failure: connection refused");
    }

    @Test
    void judgeWhenWindowPassesThenNoFailureReasonAttached() {
        HealthPingStats passing = new HealthPingStats(1, 0, 0, 5_000_000, 5_000_000, 5_000_000);

        BurstWindowRule.Judgement judgement = rule(1, 1, null).judge(ActiveHealth.INITIAL, passing, "stale reason");

        assertThat(judgement.active().state()).isEqualTo(HealthState.HEALTHY);
        assertThat(judgement.detail()).isEqualTo("0/1 samples failed, average 5 ms");
    }
}
