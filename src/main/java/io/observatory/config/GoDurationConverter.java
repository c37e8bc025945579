package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.converter.GenericConverter;

/**
 * Converts text, or a number as YAML reads {@code probe-interval: 1000}, to a {@link Duration} with
 * {@link GoDuration#parse}, so durations read as they do in an Xray config ({@code 10s}, {@code 1.5s},
 * {@code 2h45m}, {@code 300ms}) as well as in Spring's forms; a bare {@code 0} is zero, as in Go, and any other bare
 * number lacks a unit ({@code 1000 (expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)}).
 *
 * <p>{@link ObservatoryConfigBinder} binds every {@code observatory.*} duration with it alone, so a value it rejects
 * fails with its message. Registered through {@link ObservatoryConfiguration} for the application's other
 * configuration properties too, where Spring Boot falls back to its own conversion for a value it rejects: a bare
 * {@code 1000} keeps Spring's meaning (milliseconds) there.
 */
@ConfigurationPropertiesBinding
public final class GoDurationConverter implements GenericConverter {

    @Override
    public Set<ConvertiblePair> getConvertibleTypes() {
        return Set.of(
                new ConvertiblePair(String.class, Duration.class), new ConvertiblePair(Number.class, Duration.class));
    }

    /**
     * Parses the trimmed text, or the number as written.
     *
     * @throws InvalidValueException when the value is not a duration, e.g. {@code 1000}
     */
    @Override
    public @Nullable Duration convert(@Nullable Object source, TypeDescriptor sourceType, TypeDescriptor targetType) {
        return source == null ? null : GoDuration.parse(source.toString().strip());
    }
}
