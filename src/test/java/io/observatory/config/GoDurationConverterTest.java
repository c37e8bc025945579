package io.observatory.config;

import io.observatory.text.InvalidValueException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoDurationConverterTest {

    private final GoDurationConverter converter = new GoDurationConverter();

    @Test
    void convertWhenGoDurationWithBlanksThenTrimmedAndParsed() {
        assertThat(converter.convert(" 1h2m3.5s\n")).isEqualTo(Duration.ofMillis(3_723_500));
    }

    @Test
    void convertWhenBareNumberThenErrorSaysUnitRequired() {
        assertThatThrownBy(() -> converter.convert("1000"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("1000 (expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)");
    }
}
