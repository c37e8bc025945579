package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

/**
 * Converts text to a {@link Duration} with {@link GoDuration}, so durations read as they do in an Xray config
 * ({@code 10s}, {@code 1.5s}, {@code 2h45m}, {@code 300ms}) as well as in Spring's forms. {@link ObservatoryConfigBinder}
 * binds every {@code observatory.*} duration with it alone, so a value it rejects (e.g. {@code 1000}) fails with its
 * message. Registered through {@link ObservatoryConfiguration} for the application's other configuration properties
 * too, where Spring Boot falls back to its own conversion for a value it rejects, so a bare {@code 1000} keeps
 * Spring's meaning (milliseconds) there.
 */
@ConfigurationPropertiesBinding
public final class GoDurationConverter implements Converter<String, Duration> {

    /**
     * Parses the trimmed value with {@link GoDuration#parse(String)}.
     *
     * @throws InvalidValueException when the value is not a duration, e.g. {@code 1000}
     */
    @Override
    public Duration convert(String source) {
        return GoDuration.parse(source.strip());
    }
}
