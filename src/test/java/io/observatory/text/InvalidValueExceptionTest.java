package io.observatory.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InvalidValueExceptionTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '\'',
            nullValues = "NULL",
            value = {
                "1000       | 1000 (expected: 1-65535)",
                "''         | (empty) (expected: 1-65535)",
                "'  '       | \"  \" (expected: 1-65535)",
                "' 10s'     | \" 10s\" (expected: 1-65535)",
                "NULL       | (none) (expected: 1-65535)",
                "say \"hi\" | say \"hi\" (expected: 1-65535)",
                "\"quoted\" | \"\\\"quoted\\\"\" (expected: 1-65535)"
            })
    void messageWhenValueThenPrintedVisiblyOnOneLine(String value, String message) {
        assertThat(new InvalidValueException(value, "1-65535")).hasMessage(message);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "'a\nb'     | \"a\\nb\" (expected: one line)",
                "'a\r\nb'   | \"a\\r\\nb\" (expected: one line)",
                "'a\tb'     | \"a\\tb\" (expected: one line)",
                "'a\u0000b' | \"a\\u0000b\" (expected: one line)"
            })
    void messageWhenValueHasControlCharactersThenEscaped(String value, String message) {
        assertThat(new InvalidValueException(value, "one line"))
                .hasMessage(message)
                .message()
                .doesNotContain("\n", "\r");
    }
}
