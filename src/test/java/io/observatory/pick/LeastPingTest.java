package io.observatory.pick;

import static io.observatory.pick.Candidates.alive;
import static io.observatory.pick.Candidates.burst;
import static io.observatory.pick.Candidates.dead;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LeastPingTest {

    static Stream<Arguments> picks() {
        return Stream.of(
                Arguments.of("smallest delay", List.of(alive("a", 300), alive("b", 100), alive("c", 200)), "b"),
                Arguments.of("dead excluded", List.of(dead("a"), alive("b", 500)), "b"),
                Arguments.of(
                        "not alive excluded however small its delay",
                        List.of(new PickCandidate("a", false, 1, null), alive("b", 500)),
                        "b"),
                Arguments.of("tie: first tag", List.of(alive("c", 100), alive("b", 100), alive("d", 100)), "b"),
                Arguments.of("zero delay", List.of(alive("a", 0), alive("b", 1)), "a"),
                Arguments.of("just below the dead delay", List.of(alive("a", 99_999_998)), "a"),
                Arguments.of(
                        "burst statistics ignored: delay decides",
                        List.of(burst("steady", 1, 200, 0, 10), burst("jumpy", 90, 150, 5, 10)),
                        "jumpy"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("picks")
    void leastPingWhenAliveCandidatesThenSmallestDelay(String name, List<PickCandidate> candidates, String expected) {
        assertThat(LeastPing.pick(candidates)).contains(expected);
    }

    static Stream<Arguments> noPicks() {
        return Stream.of(
                Arguments.of("no candidates", List.of()),
                Arguments.of("all dead", List.of(dead("a"), dead("b"))),
                Arguments.of("alive at the dead delay", List.of(alive("a", 99_999_999))),
                Arguments.of("alive above the dead delay", List.of(alive("a", 100_000_000))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("noPicks")
    void leastPingWhenNoAliveCandidateBelowDeadDelayThenNone(String name, List<PickCandidate> candidates) {
        assertThat(LeastPing.pick(candidates)).isEqualTo(Optional.empty());
    }
}
