package io.observatory.config;

import io.observatory.text.InvalidValueException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoDurationNumberConverterTest {

    private static final String UNIT = "(expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)";

    private final GoDurationNumberConverter converter = new GoDurationNumberConverter();

    @Test
    void convertWhenZeroThenZeroAsGoAcceptsBareZero() {
        assertThat(converter.convert(0)).isEqualTo(Duration.ZERO);
    }

    @Test
    void convertWhenWholeNumberThenErrorSaysUnitRequired() {
        assertThatThrownBy(() -> converter.convert(1000))
                .isInstanceOf(InvalidValueException.class)
                .hasMessage("1000 " + UNIT);
    }

    @Test
    void convertWhenFractionalZeroThenErrorSaysUnitRequiredAsGoDoes() {
        assertThatThrownBy(() -> converter.convert(0.0)).hasMessage("0.0 " + UNIT);
    }
}
