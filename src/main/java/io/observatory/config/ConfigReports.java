package io.observatory.config;

import io.observatory.text.InvalidValueException;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.origin.Origin;
import org.springframework.validation.FieldError;

/**
 * Turns what Spring Boot's binder reports — a value that does not convert, an unknown key, a broken field constraint
 * or rule ({@link ConfigChecks}), a value of the wrong shape ({@link ShapeCheck}) — into the one line of an
 * {@link InvalidConfigException}, built from the failure's own property, value and origin. Of several problems the
 * first is reported: the first unknown key in name order, the first broken constraint in declaration order.
 */
final class ConfigReports {

    /** A property path's elements outside brackets, which are Java names to put in kebab case. */
    private static final Pattern OUTSIDE_BRACKETS = Pattern.compile("[^\\[\\].]+(?![^\\[]*])");

    private ConfigReports() {}

    /**
     * The report of {@code failure}, or {@code null} when it carries nothing to report on one line.
     *
     * @param expectations what the record being bound expects below its name, or {@code null} for settings that are
     *                     not this service's records (the servers' ports)
     */
    static @Nullable InvalidConfigException of(BindException failure, @Nullable PropertyExpectations expectations) {
        ShapeCheck.MismatchException shape = findCause(failure, ShapeCheck.MismatchException.class);
        if (shape != null) {
            return new InvalidConfigException(shape.line, shape.origin, failure);
        }
        UnboundConfigurationPropertiesException unbound =
                findCause(failure, UnboundConfigurationPropertiesException.class);
        if (unbound != null && expectations != null) {
            ConfigurationProperty first =
                    unbound.getUnboundProperties().iterator().next();
            return new InvalidConfigException(expectations.unbound(first), first.getOrigin(), failure);
        }
        BindValidationException invalid = findCause(failure, BindValidationException.class);
        if (invalid != null) {
            return violation(invalid.getValidationErrors(), expectations, failure);
        }
        ConfigurationProperty property = failure.getProperty();
        if (property == null) {
            return null;
        }
        String name = failure.getName().toString();
        InvalidValueException invalidValue = findCause(failure, InvalidValueException.class);
        ReportLine line = new ReportLine(
                name,
                ReportLine.printable(name, property.getValue()),
                invalidValue != null
                        ? invalidValue.expected()
                        : PropertyExpectations.expected(failure.getTarget().getType()));
        return new InvalidConfigException(line, property.getOrigin(), failure);
    }

    /** Whether {@code failure} is an unknown key: a mistake reported before any other. */
    static boolean unknownKey(BindException failure) {
        return findCause(failure, UnboundConfigurationPropertiesException.class) != null;
    }

    /** The first broken constraint of the record the errors are about, by declaration order of its properties. */
    private static @Nullable InvalidConfigException violation(
            ValidationErrors errors, @Nullable PropertyExpectations expectations, BindException cause) {
        Comparator<String> order = expectations == null
                ? Comparator.comparing(field -> 0)
                : expectations.declarationOrder(errors.getName());
        FieldError first = errors.getAllErrors().stream()
                .filter(FieldError.class::isInstance)
                .map(FieldError.class::cast)
                .min(Comparator.comparing(FieldError::getField, order))
                .orElse(null);
        if (first == null) {
            return null;
        }
        String property = errors.getName() + "." + kebab(first.getField());
        Origin origin = Origin.from(first);
        if (origin == null) {
            origin = errors.getBoundProperties().stream()
                    .filter(bound -> bound.getName().toString().equals(property))
                    .map(ConfigurationProperty::getOrigin)
                    .findFirst()
                    .orElse(null);
        }
        ReportLine line = new ReportLine(
                property,
                ReportLine.printable(property, first.getRejectedValue()),
                String.valueOf(first.getDefaultMessage()));
        return new InvalidConfigException(line, origin, cause);
    }

    /** A field path as Bean Validation names it ({@code subjectSelector[1]}) with its keys in kebab case. */
    private static String kebab(String field) {
        Matcher names = OUTSIDE_BRACKETS.matcher(field);
        return names.replaceAll(name -> Matcher.quoteReplacement(DataObjectPropertyName.toDashedForm(name.group())));
    }

    private static <T extends Throwable> @Nullable T findCause(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
