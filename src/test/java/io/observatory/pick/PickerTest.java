package io.observatory.pick;

import static io.observatory.pick.Candidates.alive;
import static io.observatory.pick.Candidates.dead;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class PickerTest {

    private static final String KEY = "proxy_";

    private static PickSettings settings(BalancerStrategy strategy, String fallbackTag) {
        return new PickSettings(strategy, fallbackTag, null);
    }

    private static Optional<PickResult> picked(String tag) {
        return Optional.of(new PickResult(tag, false));
    }

    @ParameterizedTest(name = "random draws {0} -> {1}")
    @CsvSource({"0, a", "1, b", "2, c"})
    void pickWhenRandomThenDrawIndexesCandidatesInTagOrder(int draw, String expected) {
        ScriptedRandom random = new ScriptedRandom(draw);
        Picker picker = new Picker(random, new RoundRobinPositions());

        Optional<PickResult> result = picker.pick(
                settings(BalancerStrategy.RANDOM, ""), KEY, List.of(alive("c", 1), alive("a", 2), alive("b", 3)));

        assertThat(result).isEqualTo(picked(expected));
        assertThat(random.bounds()).containsExactly(3);
    }

    @ParameterizedTest(name = "{0}, fallback [{1}], draws {2} -> {3}")
    @CsvSource({
        // without a fallback tag every candidate is usable, the dead one too (Xray does not look at the
        // observation then); with one, only the alive ones
        "RANDOM,      '',     0 1 2, a b c",
        "RANDOM,      direct, 0 1 0, b c b",
        "ROUND_ROBIN, '',     '',    a b c",
        "ROUND_ROBIN, direct, '',    b c b",
    })
    void pickWhenRandomOrRoundRobinWithFallbackThenDeadCandidatesExcluded(
            BalancerStrategy strategy, String fallbackTag, String draws, String expected) {
        Integer[] scripted = draws.isEmpty()
                ? new Integer[0]
                : Arrays.stream(draws.split(" ")).map(Integer::valueOf).toArray(Integer[]::new);
        Picker picker = new Picker(new ScriptedRandom(scripted), new RoundRobinPositions());
        List<PickCandidate> candidates = List.of(dead("a"), alive("b", 100), alive("c", 100));

        List<String> tags = new ArrayList<>();
        for (int call = 0; call < 3; call++) {
            tags.add(picker.pick(settings(strategy, fallbackTag), KEY, candidates)
                    .orElseThrow()
                    .tag());
        }

        assertThat(String.join(" ", tags)).isEqualTo(expected);
    }

    @Test
    void pickWhenRoundRobinThenCandidatesInTurnByTagOrder() {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());
        List<PickCandidate> candidates = List.of(alive("c", 1), alive("a", 2), alive("b", 3));

        List<String> tags = new ArrayList<>();
        for (int call = 0; call < 5; call++) {
            tags.add(picker.pick(settings(BalancerStrategy.ROUND_ROBIN, ""), KEY, candidates)
                    .orElseThrow()
                    .tag());
        }

        assertThat(tags).containsExactly("a", "b", "c", "a", "b");
    }

    @Test
    void pickWhenRoundRobinForTwoKeysThenEachKeyHasItsOwnTurn() {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());
        PickSettings roundRobin = settings(BalancerStrategy.ROUND_ROBIN, "");
        List<PickCandidate> candidates = List.of(alive("a", 1), alive("b", 2));

        assertThat(picker.pick(roundRobin, "proxy_", candidates)).isEqualTo(picked("a"));
        assertThat(picker.pick(roundRobin, "direct_", candidates)).isEqualTo(picked("a"));
        assertThat(picker.pick(roundRobin, "proxy_", candidates)).isEqualTo(picked("b"));
    }

    @Test
    void pickWhenLeastPingThenSmallestDelayOfAlive() {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());

        assertThat(picker.pick(
                        settings(BalancerStrategy.LEAST_PING, "direct"),
                        KEY,
                        List.of(alive("a", 300), alive("b", 100), new PickCandidate("c", false, 5, null))))
                .isEqualTo(picked("b"));
    }

    @ParameterizedTest(name = "draw {0} -> {1}")
    @CsvSource({"0, b", "1, c", "2, a"})
    void pickWhenLeastLoadThenRandomAmongKeptBestFirst(int draw, String expected) {
        ScriptedRandom random = new ScriptedRandom(draw);
        Picker picker = new Picker(random, new RoundRobinPositions());
        LeastLoadSettings keepThree = new LeastLoadSettings(3, Duration.ZERO, 0, List.of(), List.of());

        Optional<PickResult> result = picker.pick(
                new PickSettings(BalancerStrategy.LEAST_LOAD, "", keepThree),
                KEY,
                List.of(alive("a", 30), alive("b", 10), alive("c", 20), alive("d", 40), dead("e")));

        assertThat(result).isEqualTo(picked(expected));
        assertThat(random.bounds()).containsExactly(3);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BalancerStrategy.class)
    void pickWhenNoCandidateAndFallbackThenFallback(BalancerStrategy strategy) {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());

        assertThat(picker.pick(settings(strategy, "direct"), KEY, List.of())).contains(new PickResult("direct", true));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BalancerStrategy.class)
    void pickWhenNoCandidateAndNoFallbackThenEmpty(BalancerStrategy strategy) {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());

        assertThat(picker.pick(settings(strategy, ""), KEY, List.of())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BalancerStrategy.class)
    void pickWhenAllCandidatesDeadAndFallbackThenFallback(BalancerStrategy strategy) {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());

        assertThat(picker.pick(settings(strategy, "direct"), KEY, List.of(dead("a"), dead("b"))))
                .contains(new PickResult("direct", true));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = BalancerStrategy.class,
            names = {"LEAST_PING", "LEAST_LOAD"})
    void pickWhenAllCandidatesDeadAndNoFallbackThenEmptyForLeastPingAndLeastLoad(BalancerStrategy strategy) {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());

        assertThat(picker.pick(settings(strategy, ""), KEY, List.of(dead("a")))).isEmpty();
    }

    @Test
    void pickWhenLeastLoadBaselinesKeepNoneThenFallback() {
        Picker picker = new Picker(new ScriptedRandom(), new RoundRobinPositions());
        LeastLoadSettings strict = new LeastLoadSettings(0, Duration.ZERO, 0, List.of(Duration.ofMillis(5)), List.of());

        assertThat(picker.pick(
                        new PickSettings(BalancerStrategy.LEAST_LOAD, "direct", strict), KEY, List.of(alive("a", 10))))
                .contains(new PickResult("direct", true));
    }
}
