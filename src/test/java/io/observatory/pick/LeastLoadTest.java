package io.observatory.pick;

import static io.observatory.pick.Candidates.alive;
import static io.observatory.pick.Candidates.burst;
import static io.observatory.pick.Candidates.dead;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.stats.HealthPingStats;
import io.observatory.text.GoDuration;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class LeastLoadTest {

    /** Keeps every qualified outbound, so that a test sees qualification and ranking alone. */
    private static final int KEEP_ALL = 100;

    private static List<String> selected(LeastLoadSettings settings, PickCandidate... candidates) {
        return new LeastLoad(settings).selected(List.of(candidates));
    }

    private static LeastLoadSettings keepAll() {
        return new LeastLoadSettings(KEEP_ALL, Duration.ZERO, 0, List.of(), List.of());
    }

    private static LeastLoadSettings keepAll(List<CostWeight> costs) {
        return new LeastLoadSettings(KEEP_ALL, Duration.ZERO, 0, List.of(), costs);
    }

    private static LeastLoadSettings baselines(int expected, String... baselines) {
        return new LeastLoadSettings(
                expected,
                Duration.ZERO,
                0,
                Arrays.stream(baselines).map(GoDuration::parse).toList(),
                List.of());
    }

    // ---- qualification

    @Test
    void leastLoadWhenCandidateDeadThenExcluded() {
        assertThat(selected(keepAll(), dead("a"), alive("b", 300), new PickCandidate("c", false, 10, null)))
                .containsExactly("b");
    }

    @ParameterizedTest(name = "max-rtt {0}, delay {1} ms -> qualified {2}")
    @CsvSource({
        "0s,    99999998, true", // 0: no limit
        "1s,    999,      true",
        "1s,    1000,     false", // equal: out (strictly below)
        "1s,    1001,     false",
        "1.9ms, 0,        true", // compared in whole milliseconds: 1.9ms counts as 1ms
        "1.9ms, 1,        false",
        "500us, 0,        false", // set but below 1ms: nothing is below 0ms
    })
    void leastLoadWhenDelayNotBelowMaxRttThenCandidateExcluded(String maxRtt, long delayMillis, boolean qualified) {
        LeastLoadSettings settings = new LeastLoadSettings(KEEP_ALL, GoDuration.parse(maxRtt), 0, List.of(), List.of());

        assertThat(selected(settings, alive("a", delayMillis))).isEqualTo(qualified ? List.of("a") : List.of());
    }

    @ParameterizedTest(name = "tolerance {0}, {1} of {2} failed -> qualified {3}")
    @CsvSource({
        "0,    8, 8,  true", // 0: no limit
        "0.25, 1, 8,  true",
        "0.25, 2, 8,  true", // equal: in
        "0.25, 3, 8,  false",
        "0.25, 0, 0,  true", // no samples: rate 0
        "1,    8, 8,  true",
        "0.5,  5, 10, true", // 0.5 is exact in float32
        "0.7,  7, 10, false", // Xray's float32 tolerance: 0.7 is 0.699999988 (strategy_leastload.go)
        "0.9,  9, 10, false", // 0.9 is 0.899999976
        "1e-46, 8, 8, true", // 0 as float32: no limit, as in Xray (Tolerance > 0)
    })
    void leastLoadWhenToleranceExceededThenCandidateExcluded(double tolerance, int fail, int all, boolean qualified) {
        LeastLoadSettings settings = new LeastLoadSettings(KEEP_ALL, Duration.ZERO, tolerance, List.of(), List.of());

        assertThat(selected(settings, burst("a", 10, 100, fail, all))).isEqualTo(qualified ? List.of("a") : List.of());
    }

    @Test
    void leastLoadWhenToleranceSetAndNoBurstStatisticsThenCandidateQualifies() {
        LeastLoadSettings settings = new LeastLoadSettings(KEEP_ALL, Duration.ZERO, 0.01, List.of(), List.of());

        assertThat(selected(settings, alive("a", 100))).containsExactly("a");
    }

    // ---- ranking

    static Stream<Arguments> rankings() {
        return Stream.of(
                Arguments.of(
                        "burst: lower deviation first, however high the average",
                        List.of(burst("a", 30, 100, 0, 10), burst("b", 10, 300, 0, 10)),
                        List.of("b", "a")),
                Arguments.of(
                        "standard: the delay is the cost",
                        List.of(alive("a", 200), alive("b", 100), alive("c", 150)),
                        List.of("b", "c", "a")),
                Arguments.of(
                        "mixed: deviation against delay",
                        List.of(burst("a", 50, 60, 0, 10), alive("b", 40)),
                        List.of("b", "a")),
                Arguments.of(
                        "equal cost: lower average first",
                        List.of(burst("a", 10, 200, 0, 10), burst("b", 10, 100, 0, 10)),
                        List.of("b", "a")),
                Arguments.of(
                        "equal cost and average: fewer failures first",
                        List.of(burst("a", 10, 100, 2, 10), burst("b", 10, 100, 1, 10)),
                        List.of("b", "a")),
                Arguments.of(
                        "equal cost, average and failures: more samples first",
                        List.of(burst("a", 10, 100, 1, 8), burst("b", 10, 100, 1, 10)),
                        List.of("b", "a")),
                Arguments.of(
                        "all equal: tag order",
                        List.of(alive("c", 100), alive("a", 100), alive("b", 100)),
                        List.of("a", "b", "c")),
                Arguments.of(
                        "standard counts as 1 of 1 failed: a burst peer with 0 failures goes first",
                        List.of(alive("a", 100), burst("b", 100, 100, 0, 1)),
                        List.of("b", "a")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankings")
    void leastLoadWhenCandidatesQualifyThenRankedByCostThenAverageFailuresSamplesTag(
            String name, List<PickCandidate> candidates, List<String> expected) {
        assertThat(new LeastLoad(keepAll()).selected(candidates)).isEqualTo(expected);
    }

    @Test
    void leastLoadWhenCostValueGivenThenWeighedAtXraysFloat32Precision() {
        // 100 ms × sqrt(float32 1.1 = 1.100000024) = 104,880,885 ns (104,880,884 ns at double precision); Xray keeps
        // an outbound only while its cost is below the baseline.
        List<CostWeight> costs = List.of(new CostWeight("a", false, 1.1));

        assertThat(selected(
                        new LeastLoadSettings(0, Duration.ZERO, 0, List.of(Duration.ofNanos(104_880_885)), costs),
                        alive("a", 100)))
                .isEmpty();
        assertThat(selected(
                        new LeastLoadSettings(0, Duration.ZERO, 0, List.of(Duration.ofNanos(104_880_886)), costs),
                        alive("a", 100)))
                .containsExactly("a");
    }

    static Stream<Arguments> weightedRankings() {
        return Stream.of(
                Arguments.of(
                        "substring with a value: 100ms x sqrt(4) = 200ms > 150ms",
                        List.of(new CostWeight("a", false, 4)),
                        List.of("b", "a")),
                Arguments.of(
                        "substring with a value: 100ms x sqrt(2) = 141ms < 150ms",
                        List.of(new CostWeight("a", false, 2)),
                        List.of("a", "b")),
                Arguments.of(
                        "regexp, weight from the matched text: 100ms x sqrt(9) = 300ms > 150ms",
                        List.of(new CostWeight("x\\d", true, 0)),
                        List.of("b", "a-x9")),
                Arguments.of(
                        "weight below 1 favours: 150ms x sqrt(0.25) = 75ms < 100ms",
                        List.of(new CostWeight("b", false, 0.25)),
                        List.of("b", "a")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("weightedRankings")
    void leastLoadWhenCostsMatchThenCostScaledBySquareRootOfWeight(
            String name, List<CostWeight> costs, List<String> expected) {
        String first = expected.contains("a-x9") ? "a-x9" : "a";

        assertThat(selected(keepAll(costs), alive(first, 100), alive("b", 150))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "baseline {0} -> kept {1}")
    @CsvSource({
        "150ms,           false", // 100ms x sqrt(2.25) = 150ms exactly: not below
        "150.000001ms,    true",
    })
    void leastLoadWhenWeightedThenCostIsDelayTimesSquareRootOfWeight(String baseline, boolean kept) {
        LeastLoadSettings settings = new LeastLoadSettings(
                0, Duration.ZERO, 0, List.of(GoDuration.parse(baseline)), List.of(new CostWeight("a", false, 2.25)));

        assertThat(selected(settings, alive("a", 100))).isEqualTo(kept ? List.of("a") : List.of());
    }

    @ParameterizedTest(name = "baseline {0} -> kept {1}")
    @CsvSource({
        "40ms,      false", // deviation 20ms x sqrt(4) = 40ms exactly: not below
        "40.000001ms, true",
    })
    void leastLoadWhenBurstStatisticsThenCostIsDeviationTimesSquareRootOfWeight(String baseline, boolean kept) {
        LeastLoadSettings settings = new LeastLoadSettings(
                0, Duration.ZERO, 0, List.of(GoDuration.parse(baseline)), List.of(new CostWeight("a", false, 4)));
        PickCandidate candidate = new PickCandidate(
                "a", true, 500, new HealthPingStats(10, 0, Duration.ofMillis(20).toNanos(), 1, 1, 1));

        assertThat(selected(settings, candidate)).isEqualTo(kept ? List.of("a") : List.of());
    }

    // ---- how many are kept; costs 10, 20, 30 and 40 ms

    private static final PickCandidate[] FOUR = {alive("d", 40), alive("b", 20), alive("a", 10), alive("c", 30)};

    @ParameterizedTest(name = "expected {0}, baselines [{1}] -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                // no baselines: expected, at least 1, all if more are expected than qualify
                "0 |             | a",
                "1 |             | a",
                "2 |             | a b",
                "4 |             | a b c d",
                "5 |             | a b c d",
                // expected 0 with baselines: the first baseline that keeps any decides; none -> none (fallback)
                "0 | 25ms        | a b",
                "0 | 20ms        | a", // 20ms is not below 20ms
                "0 | 5ms         | ''",
                "0 | 5ms 9ms     | ''",
                "0 | 5ms 15ms    | a",
                "0 | 35ms 5ms    | a b c", // the first that keeps any stops the search
                // expected > 0 with baselines: the first baseline reaching it decides, else exactly expected
                "2 | 15ms 35ms   | a b c",
                "2 | 25ms 35ms   | a b",
                "1 | 35ms 45ms   | a b c",
                "3 | 5ms 15ms    | a b c",
                "2 | 100ms       | a b c d",
                "5 | 15ms        | a b c d", // more expected than qualify: all, baselines unused
            })
    void leastLoadWhenExpectedAndBaselinesThenKeptCountAsXray(int expected, String baselines, String kept) {
        String[] parsed = baselines == null ? new String[0] : baselines.trim().split(" +");

        assertThat(selected(baselines(expected, parsed), FOUR))
                .isEqualTo(kept.isEmpty() ? List.of() : List.of(kept.split(" ")));
    }

    @Test
    void leastLoadWhenNoCandidatesThenNoneKept() {
        assertThat(selected(baselines(3))).isEmpty();
    }

    @Test
    void leastLoadWhenExpectedExceedsCandidatesThenOnlyQualifiedKept() {
        assertThat(selected(baselines(5), dead("a"), alive("b", 20), alive("c", 10)))
                .containsExactly("c", "b");
    }
}
