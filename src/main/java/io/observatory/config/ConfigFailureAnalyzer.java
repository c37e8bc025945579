package io.observatory.config;

import io.observatory.text.InvalidValueException;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.validation.FieldError;

/**
 * Reports a configuration under {@code observatory.*}, or a server setting ({@code spring.grpc.server.*},
 * {@code server.*}, {@code management.server.*}), that could not be bound or validated as one line, with an
 * action naming where the value was set: a broken constraint ({@code observatory.outbounds[1].port: 70000 (expected:
 * 1-65535)}), a value that does not convert, an unknown key (with the keys known there) or a value of the wrong shape
 * ({@link ShapeCheck}). Of several problems the first is reported: the first unknown key in name order, the first
 * broken constraint in declaration order. Secrets are masked ({@link ReportLine}). Registered in
 * {@code META-INF/spring.factories} ahead of Spring Boot's multi-line reports, which keep other properties' failures.
 */
public class ConfigFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

    /** The settings reported here: this service's own and its servers' (ports and addresses). */
    private static final List<ConfigurationPropertyName> REPORTED = Stream.of(
                    ObservatoryConfigBinder.PREFIX, "spring.grpc.server", "server", "management.server")
            .map(ConfigurationPropertyName::of)
            .toList();

    /** A property path's elements outside brackets, which are Java names to put in kebab case. */
    private static final Pattern OUTSIDE_BRACKETS = Pattern.compile("[^\\[\\].]+(?![^\\[]*])");

    /**
     * The one line describing {@code failure}, the same line a start-up report shows, or {@code null} when it is no
     * binding failure of {@code observatory.*}; for the reload's rejection log line.
     */
    public static @Nullable String describe(BindException failure) {
        FailureAnalysis analysis = new ConfigFailureAnalyzer().analyze(failure, failure);
        return analysis == null ? null : analysis.getDescription();
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
        ConfigurationPropertyName failed = cause.getName();
        if (REPORTED.stream().noneMatch(prefix -> prefix.equals(failed) || prefix.isAncestorOf(failed))) {
            return null;
        }
        ShapeCheck.MismatchException shape = findCause(cause, ShapeCheck.MismatchException.class);
        if (shape != null) {
            return analysis(shape.line, shape.origin, cause);
        }
        UnboundConfigurationPropertiesException unbound =
                findCause(cause, UnboundConfigurationPropertiesException.class);
        if (unbound != null) {
            ConfigurationProperty first =
                    unbound.getUnboundProperties().iterator().next();
            return analysis(PropertyExpectations.unbound(first), first.getOrigin(), cause);
        }
        BindValidationException invalid = findCause(cause, BindValidationException.class);
        if (invalid != null) {
            return violation(invalid.getValidationErrors(), cause);
        }
        ConfigurationProperty property = cause.getProperty();
        if (property == null) {
            return null;
        }
        String name = cause.getName().toString();
        InvalidValueException invalidValue = findCause(cause, InvalidValueException.class);
        ReportLine line = new ReportLine(
                name,
                ReportLine.printable(name, property.getValue()),
                invalidValue != null
                        ? invalidValue.expected()
                        : PropertyExpectations.expected(cause.getTarget().getType()));
        return analysis(line, property.getOrigin(), cause);
    }

    /** Ahead of Spring Boot's analyzers, which would report the same failure on several lines. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** The first broken constraint of the record the errors are about, by declaration order of its properties. */
    private static @Nullable FailureAnalysis violation(ValidationErrors errors, BindException cause) {
        FieldError first = errors.getAllErrors().stream()
                .filter(FieldError.class::isInstance)
                .map(FieldError.class::cast)
                .min(Comparator.comparing(
                        FieldError::getField, PropertyExpectations.declarationOrder(errors.getName())))
                .orElse(null);
        if (first == null) {
            return null;
        }
        String property = errors.getName() + "." + kebab(first.getField());
        Violations.Decoded message = Violations.decode(
                String.valueOf(first.getDefaultMessage()), errors.getName().toString());
        String found = message.found() != null
                ? ReportLine.masked(property, message.found())
                : ReportLine.printable(property, first.getRejectedValue());
        Origin origin = Origin.from(first);
        if (origin == null) {
            origin = errors.getBoundProperties().stream()
                    .filter(bound -> bound.getName().toString().equals(property))
                    .map(ConfigurationProperty::getOrigin)
                    .findFirst()
                    .orElse(null);
        }
        return analysis(new ReportLine(property, found, message.expected()), origin, cause);
    }

    /** A field path as Bean Validation names it ({@code subjectSelector[1]}) with its keys in kebab case. */
    private static String kebab(String field) {
        Matcher names = OUTSIDE_BRACKETS.matcher(field);
        return names.replaceAll(name -> Matcher.quoteReplacement(DataObjectPropertyName.toDashedForm(name.group())));
    }

    /**
     * The report of a value that cannot be used, in the form of every other bad value: the description
     * {@code property: found (expected: what)}, the action naming where it was set.
     *
     * @param origin where the value was set, or {@code null} for a default
     */
    public static FailureAnalysis analysis(
            String property, String found, String expected, @Nullable Origin origin, Throwable cause) {
        return analysis(new ReportLine(property, found, expected), origin, cause);
    }

    private static FailureAnalysis analysis(ReportLine line, @Nullable Origin origin, Throwable cause) {
        String where = origin == null ? "" : " (set in " + origin + ")";
        return new FailureAnalysis(
                line.describe(),
                "Update " + line.property() + " in the application configuration" + where + ". Expected: "
                        + line.expected() + ".",
                cause);
    }
}
