package io.observatory.pick;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingMessagesTest {

    @Test
    void invalidWhenBuiltThenMessageNamesFieldValueAndExpectation() {
        assertThat(SettingMessages.invalid("tolerance", "1.5", "0-1")).hasMessage("tolerance: 1.5 (expected: 0-1)");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "fastest      | \"fastest\"",
                "''           | \"\"",
                "' x '        | \" x \"",
                "a\"b         | \"a\\\"b\"",
                "a\\b         | \"a\\\\b\"",
            })
    void quotedWhenTextHasQuotesOrBackslashesThenEscaped(String text, String expected) {
        assertThat(SettingMessages.quoted(text)).isEqualTo(expected);
    }

    @Test
    void quotedWhenTextHasControlCharactersThenEscapedOnOneLine() {
        assertThat(SettingMessages.quoted("a\nb\tc\u0001")).isEqualTo("\"a\\nb\\tc\\u0001\"");
    }

    @Test
    void quotedWhenTextIsNullThenNone() {
        assertThat(SettingMessages.quoted(null)).isEqualTo("(none)");
    }

    @Test
    void quotedWhenTextLongerThan64CharactersThenCutWithLength() {
        assertThat(SettingMessages.quoted("x".repeat(64))).isEqualTo("\"" + "x".repeat(64) + "\"");
        assertThat(SettingMessages.quoted("x".repeat(65))).isEqualTo("\"" + "x".repeat(64) + "\"… (65 characters)");
    }

    @Test
    void durationWhenPrintedThenGoForm() {
        assertThat(SettingMessages.duration(Duration.ofSeconds(-1))).isEqualTo("-1s");
        assertThat(SettingMessages.duration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(SettingMessages.duration(null)).isEqualTo("(none)");
    }

    @Test
    void durationWhenBeyondGoRangeThenIsoForm() {
        assertThat(SettingMessages.duration(Duration.ofDays(-400 * 365))).isEqualTo("PT-3504000H");
    }
}
