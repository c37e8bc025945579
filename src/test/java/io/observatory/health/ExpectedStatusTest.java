package io.observatory.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.text.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExpectedStatusTest {

    @ParameterizedTest(name = "{0} matches {1}: {2}")
    @CsvSource({
        "204,             204, true",
        "204,             200, false",
        "200-299,         199, false",
        "200-299,         200, true",
        "200-299,         299, true",
        "200-299,         300, false",
        "200/204/301-399, 200, true",
        "200/204/301-399, 204, true",
        "200/204/301-399, 203, false",
        "200/204/301-399, 300, false",
        "200/204/301-399, 301, true",
        "200/204/301-399, 399, true",
        "200/204/301-399, 400, false",
        "' 200 / 204 ',   204, true",
        "100-599,         100, true",
        "100-599,         599, true",
    })
    void matches(String text, int status, boolean expected) {
        assertThat(ExpectedStatus.parse(text).matches(status)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 200, 302, 404, 503, 599, 999})
    void anyMatchesEveryStatus(int status) {
        assertThat(ExpectedStatus.ANY.matches(status)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "99",
                "600",
                "0",
                "abc",
                "200-",
                "-200",
                "299-200",
                "200//204",
                "200/",
                "200-299-300",
                "2000",
                "200,204",
                "+200",
                "anything"
            })
    void parseWhenInvalidThenArmeriaStyleMessage(String text) {
        assertThatThrownBy(() -> ExpectedStatus.parse(text))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage(text + " (expected: any, or HTTP statuses 100-599 as N, N-M or a /-separated list, e.g. "
                        + "204, 200-299, 200/204/301-399)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " "})
    void parseWhenBlankThenMessageShowsTheBlank(String text) {
        assertThatThrownBy(() -> ExpectedStatus.parse(text))
                .hasMessageStartingWith(text.isEmpty() ? "(empty) (expected: any, " : "\" \" (expected: any, ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"any", "ANY", " Any "})
    void parseWhenAnyInAnyCaseThenAny(String text) {
        assertThat(ExpectedStatus.parse(text)).isSameAs(ExpectedStatus.ANY);
    }

    @Test
    void toStringIsTheParsedTextAndAnyForTheDefault() {
        assertThat(ExpectedStatus.parse("200/204/301-399")).hasToString("200/204/301-399");
        assertThat(ExpectedStatus.ANY).hasToString("any");
    }

    @Test
    void equalsComparesRanges() {
        assertThat(ExpectedStatus.parse("200-299")).isEqualTo(ExpectedStatus.parse(" 200-299"));
        assertThat(ExpectedStatus.parse("100-599")).as("any takes 999 too").isNotEqualTo(ExpectedStatus.ANY);
        assertThat(ExpectedStatus.parse("200")).isNotEqualTo(ExpectedStatus.parse("204"));
    }
}
