package io.observatory.config;

import io.observatory.text.InvalidValueException;
import io.observatory.config.ObservatoryBindHandlerAdvisor.MismatchException;
import io.observatory.config.PropertyExpectations.Mismatch;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;

/**
 * Reports a value under {@code observatory.*} that could not be bound as one line, for example:
 * <ul>
 *   <li>a value that does not convert, e.g. a duration without a unit, a port that is not a number or an unknown
 *       protocol: {@code observatory.standard.probe-interval: 1000 (expected: a duration with a unit, e.g. 10s, 1.5s,
 *       2h45m, 300ms)};</li>
 *   <li>a single value where a section belongs: {@code observatory.standard: yes (expected: a section with
 *       subject-selector, probe-url, probe-interval, enable-concurrency)};</li>
 *   <li>an unknown key ({@link ObservatoryProperties} binds strictly): {@code observatory.standard.probe-intreval: 5s
 *       (expected: a known property of observatory.standard: subject-selector, probe-url, probe-interval,
 *       enable-concurrency)};</li>
 *   <li>a map or list where something else belongs: {@code observatory.outbounds[0].port: (a nested map) (expected:
 *       a whole number)} (found while binding by {@link ObservatoryBindHandlerAdvisor}).</li>
 * </ul>
 * Of several unknown keys the first in name order is reported. Secrets are masked as in
 * {@link InvalidConfigException}.
 *
 * <p>Registered in {@code META-INF/spring.factories} with the highest precedence so that it is chosen before Spring
 * Boot's multi-line {@code BindFailureAnalyzer} and {@code UnboundConfigurationPropertyFailureAnalyzer}; failures of
 * other properties are left to Spring Boot.
 */
public class ObservatoryBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    private static final ConfigurationPropertyName OBSERVATORY = ConfigurationPropertyName.of("observatory");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        if (!isObservatory(cause.getName())) {
            return null;
        }
        MismatchException shape = findCause(cause, MismatchException.class);
        if (shape != null) {
            return analysis(shape.mismatch(), shape.origin(), cause);
        }
        UnboundConfigurationPropertiesException unbound =
                findCause(cause, UnboundConfigurationPropertiesException.class);
        if (unbound != null) {
            ConfigurationProperty first = unbound.getUnboundProperties().iterator().next();
            return analysis(PropertyExpectations.unbound(first), first.getOrigin(), cause);
        }
        ConfigurationProperty property = cause.getProperty();
        if (property == null) {
            return null;
        }
        String name = cause.getName().toString();
        Mismatch mismatch = new Mismatch(name,
                InvalidConfigException.printable(name, String.valueOf(property.getValue())), expected(cause));
        return analysis(mismatch, property.getOrigin(), cause);
    }

    /** Ahead of Spring Boot's analyzers, which would report the same failure on several lines. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    private static boolean isObservatory(ConfigurationPropertyName name) {
        return OBSERVATORY.equals(name) || OBSERVATORY.isAncestorOf(name);
    }

    private static FailureAnalysis analysis(Mismatch mismatch, Origin origin, BindException cause) {
        return new FailureAnalysis(mismatch.describe(),
                InvalidConfigFailureAnalyzer.action(mismatch.property(), mismatch.expected(), origin), cause);
    }

    /** The converter's own expectation when it gave one, else one derived from the property's type. */
    private String expected(BindException cause) {
        InvalidValueException invalidValue = findCause(cause, InvalidValueException.class);
        if (invalidValue != null) {
            return invalidValue.expected();
        }
        return PropertyExpectations.expected(cause.getTarget().getType());
    }
}
