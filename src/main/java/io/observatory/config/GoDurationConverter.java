package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.convert.DurationFormat;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds {@link Duration} configuration properties with {@link GoDuration}, so {@code observatory.*} durations read as
 * they do in an Xray config ({@code 10s}, {@code 1.5s}, {@code 2h45m}, {@code 300ms}) as well as in Spring's forms.
 *
 * <p>Spring Boot's binder tries this converter first for every {@code Duration} property of the application; when it
 * rejects a value, the binder falls back to Spring's own conversion, which reads a bare {@code 1000} as milliseconds.
 * Other properties therefore keep Spring's meaning for bare numbers. A property that must reject them, as every
 * {@code observatory.*} duration does, is annotated {@code @DurationFormat(DurationStyle.ISO8601)}: the fallback then
 * accepts only ISO-8601 (which this converter reads too) and the binding fails with this converter's
 * {@link InvalidValueException}. Register it through {@link ObservatoryConfiguration}.
 *
 * @see DurationFormat
 * @see DurationStyle#ISO8601
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
