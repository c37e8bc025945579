package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CostWeightTest {

    @ParameterizedTest(name = "match [{0}], regexp {1}, value {2}")
    @CsvSource({
        "eu,         false, 0",
        "eu,         false, 2.5",
        "'[',        false, 0",
        "'^eu-\\d+', true,  0",
    })
    void costWeightWhenValidThenKeepsFields(String match, boolean regexp, double value) {
        CostWeight weight = new CostWeight(match, regexp, value);

        assertThat(weight.match()).isEqualTo(match);
        assertThat(weight.regexp()).isEqualTo(regexp);
        assertThat(weight.value()).isEqualTo(value);
    }

    @Test
    void costWeightWhenMatchEmptyThenRejected() {
        assertThatThrownBy(() -> new CostWeight("", false, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("costs.match: \"\" (expected: 1-256 characters)");
    }

    @Test
    void costWeightWhenMatchMissingThenRejected() {
        assertThatThrownBy(() -> new CostWeight(null, true, 0))
                .hasMessage("costs.match: (none) (expected: 1-256 characters)");
    }

    @Test
    void costWeightWhenMatchLongerThan256CharactersThenRejected() {
        assertThat(new CostWeight("a".repeat(256), false, 0).match()).hasSize(256);
        assertThatThrownBy(() -> new CostWeight("a".repeat(257), false, 0))
                .hasMessage("costs.match: \"" + "a".repeat(64) + "\"… (257 characters) (expected: 1-256 characters)");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "[a      | missing closing ]",
                "a(b     | missing closing )",
                "(?=a)b  | invalid or unsupported Perl syntax",
                "a**     | invalid nested repetition operator",
            })
    void costWeightWhenRegexpInvalidThenMessageGivesTheRe2Reason(String match, String reason) {
        assertThatThrownBy(() -> new CostWeight(match, true, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("costs.match: \"" + match + "\" (expected: an RE2 regular expression; " + reason + ")");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(doubles = {-1, -0.001, Double.NaN, Double.POSITIVE_INFINITY})
    void costWeightWhenValueNegativeOrNotFiniteThenRejected(double value) {
        assertThatThrownBy(() -> new CostWeight("eu", false, value))
                .hasMessage("costs.value: " + value
                        + " (expected: >= 0, where 0 takes the weight from the number in the matched tag text)");
    }
}
