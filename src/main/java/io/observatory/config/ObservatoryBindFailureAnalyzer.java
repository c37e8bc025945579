package io.observatory.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Reports a value under {@code observatory.*} that could not be bound, e.g. a duration without a unit, a port that
 * is not a number or an unknown protocol, as one line:
 * {@code observatory.standard.probe-interval: 1000 (expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)}.
 *
 * <p>Registered in {@code META-INF/spring.factories} with the highest precedence so that it is chosen before Spring
 * Boot's multi-line {@code BindFailureAnalyzer}; failures of other properties are left to Spring Boot.
 */
public class ObservatoryBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    private static final ConfigurationPropertyName OBSERVATORY = ConfigurationPropertyName.of("observatory");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        ConfigurationProperty property = cause.getProperty();
        if (property == null || !OBSERVATORY.isAncestorOf(cause.getName())) {
            return null;
        }
        String name = cause.getName().toString();
        String expected = expected(cause);
        String description = InvalidConfigException.describe(name, String.valueOf(property.getValue()), expected);
        return new FailureAnalysis(description,
                InvalidConfigFailureAnalyzer.action(name, expected, property.getOrigin()), cause);
    }

    /** Ahead of Spring Boot's {@code BindFailureAnalyzer}, which would report the same failure on five lines. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** The converter's own expectation when it gave one, else one derived from the property's type. */
    private String expected(BindException cause) {
        InvalidValueException invalidValue = findCause(cause, InvalidValueException.class);
        if (invalidValue != null) {
            return invalidValue.expected();
        }
        Class<?> type = ClassUtils.resolvePrimitiveIfNecessary(cause.getTarget().getType().toClass());
        if (type.isEnum()) {
            return Arrays.stream(type.getEnumConstants())
                    .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
                    .collect(Collectors.joining(", ", "one of ", ""));
        }
        if (type == Integer.class || type == Long.class) {
            return "a whole number";
        }
        if (type == Boolean.class) {
            return "true or false";
        }
        return "a value of type " + type.getSimpleName();
    }
}
