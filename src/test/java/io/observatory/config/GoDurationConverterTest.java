package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.text.InvalidValueException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.ApplicationConversionService;

class GoDurationConverterTest {

    private static final String UNIT = "(expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)";

    private final ApplicationConversionService conversions = new ApplicationConversionService();

    GoDurationConverterTest() {
        conversions.addConverter(new GoDurationConverter());
    }

    private Duration convert(Object source) {
        return conversions.convert(source, Duration.class);
    }

    @Test
    void convertWhenGoDurationWithBlanksThenTrimmedAndParsed() {
        assertThat(convert(" 1h2m3.5s\n")).isEqualTo(Duration.ofMillis(3_723_500));
    }

    @Test
    void convertWhenBareNumberTextThenErrorSaysUnitRequired() {
        assertThatThrownBy(() -> convert("1000"))
                .rootCause()
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("1000 " + UNIT);
    }

    @Test
    void convertWhenYamlZeroThenZeroAsGoAcceptsBareZero() {
        assertThat(convert(0)).isEqualTo(Duration.ZERO);
    }

    @Test
    void convertWhenYamlWholeNumberThenErrorSaysUnitRequired() {
        assertThatThrownBy(() -> convert(1000))
                .rootCause()
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("1000 " + UNIT);
    }

    @Test
    void convertWhenYamlFractionalZeroThenErrorSaysUnitRequiredAsGoDoes() {
        assertThatThrownBy(() -> convert(0.0)).rootCause().hasMessage("0.0 " + UNIT);
    }
}
