package io.observatory.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuotedTextTest {

    @ParameterizedTest(name = "[{0}] max {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '\'',
            value = {
                "abc      | 3 | '\"abc\"'",
                "abcd     | 3 | '\"abc\"… (4 characters)'",
                "'a\"b\\c' | 9 | '\"a\\\"b\\\\c\"'",
                "''       | 0 | '\"\"'",
            })
    void quoteWhenValueGivenThenQuotedEscapedAndCut(String value, int maxChars, String expected) {
        assertThat(QuotedText.quote(value, maxChars)).isEqualTo(expected);
    }

    @Test
    void quoteWhenEscapesWouldPassTheLimitThenCutByWhatIsShown() {
        assertThat(QuotedText.quote("\u0000".repeat(300), 64))
                .isEqualTo("\"" + "\\u0000".repeat(10) + "\"… (300 characters)");
    }

    @Test
    void quoteWhenControlCharactersThenEscapedOnOneLine() {
        assertThat(QuotedText.quote("a\nb\r\tc\u0000", 99)).isEqualTo("\"a\\nb\\r\\tc\\u0000\"");
    }
}
