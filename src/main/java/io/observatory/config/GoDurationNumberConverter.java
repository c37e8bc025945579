package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

/**
 * Converts a number given for a {@link Duration}, as YAML reads {@code probe-interval: 1000} or
 * {@code probe-interval: 0}, by the same rule as text ({@link GoDuration#parse(String)} of the number as written):
 * {@code 0} is zero, as Go accepts a bare {@code "0"}; any other number lacks a unit and is rejected with
 * {@code 1000 (expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)}. Without it a YAML number would skip
 * {@link GoDurationConverter}, which only sees text. Registered like that converter, with the same fallback for
 * properties outside {@code observatory.*}.
 */
@ConfigurationPropertiesBinding
public final class GoDurationNumberConverter implements Converter<Number, Duration> {

    /**
     * Reads {@code 0} as zero.
     *
     * @throws InvalidValueException for any other number, e.g. {@code 1000}
     */
    @Override
    public Duration convert(Number source) {
        return GoDuration.parse(source.toString());
    }
}
