package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CostWeightsTest {

    private static CostWeight substring(String match, double value) {
        return new CostWeight(match, false, value);
    }

    private static CostWeight regexp(String match, double value) {
        return new CostWeight(match, true, value);
    }

    static Stream<Arguments> weights() {
        return Stream.of(
                Arguments.of("no costs: weight 1", List.of(), "proxy-eu", 1.0),
                Arguments.of("substring with a value", List.of(substring("eu", 4)), "proxy-eu", 4.0),
                Arguments.of("substring not in the tag", List.of(substring("us", 4)), "proxy-eu", 1.0),
                Arguments.of("substring without a value: its number", List.of(substring("x3", 0)), "eu-x3", 3.0),
                Arguments.of("substring without a value: its decimal", List.of(substring("x2.5", 0)), "x2.5-eu", 2.5),
                Arguments.of("substring without a value or a number", List.of(substring("eu", 0)), "proxy-eu", 1.0),
                Arguments.of("number from the match, not the tag", List.of(substring("eu", 0)), "eu-9", 1.0),
                Arguments.of("regexp with a value", List.of(regexp("^proxy-", 9)), "proxy-eu", 9.0),
                Arguments.of("regexp not matching", List.of(regexp("^eu", 9)), "proxy-eu", 1.0),
                Arguments.of(
                        "regexp without a value: number in the matched text",
                        List.of(regexp("x\\d+", 0)),
                        "eu-x16-fast",
                        16.0),
                Arguments.of(
                        "regexp: first number of the matched text", List.of(regexp("\\d+-\\d+", 0)), "eu-7-8", 7.0),
                Arguments.of("regexp: first match in the tag", List.of(regexp("x\\d", 0)), "x1-x2", 1.0),
                Arguments.of(
                        "regexp matching only empty text is no match",
                        List.of(regexp("z*", 5), substring("eu", 2)),
                        "proxy-eu",
                        2.0),
                Arguments.of(
                        "first matching entry wins",
                        List.of(substring("us", 5), substring("eu", 2), regexp("e", 3)),
                        "proxy-eu",
                        2.0),
                Arguments.of("a value wins over the number", List.of(substring("x3", 0.5)), "x3", 0.5),
                Arguments.of("auto weight 0 from the matched text", List.of(substring("x0", 0)), "x0", 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("weights")
    void weightOfWhenCostsGivenThenWeightAsXrayFindsIt(
            String name, List<CostWeight> costs, String tag, double expected) {
        assertThat(new CostWeights(costs).weightOf(tag)).isEqualTo(expected);
    }
}
