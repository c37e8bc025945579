package io.observatory.config;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.convert.ConverterNotFoundException;

/**
 * Catches two shape mistakes under {@code observatory.*} while binding, which Spring Boot's binder would ignore or
 * report without the value, and throws them as a {@link MismatchException} that {@link ConfigFailureAnalyzer}
 * reports on one line:
 * <ul>
 *   <li>a map or list where a single value belongs ({@code port: { x: 1 }}, {@code password: { x: hunter2 }},
 *       {@code probe-interval: [1s, 2s]}): Spring leaves the property unset, and inside a list entry such as
 *       {@code outbounds[0]} even its strict mode does not notice, so validation would report the value as missing;
 *       reported as {@code (a nested map)} or {@code (a list)};</li>
 *   <li>a single value where a section belongs ({@code standard: yes}, {@code outbounds: [direct]}): Spring's failure
 *       does not carry the value; reported with it.</li>
 * </ul>
 */
final class ShapeCheck extends AbstractBindHandler {

    private static final ConfigurationPropertyName OBSERVATORY =
            ConfigurationPropertyName.of(ObservatoryConfigBinder.PREFIX);

    ShapeCheck(BindHandler parent) {
        super(parent);
    }

    /**
     * A property whose shape does not fit what {@link ObservatoryConfig} declares there: the line to report, and
     * where the offending value was set ({@code null} when unknown).
     */
    static final class MismatchException extends IllegalArgumentException {

        final transient ReportLine line;
        final transient @Nullable Origin origin;

        MismatchException(ReportLine line, @Nullable Origin origin) {
            super(line.describe());
            this.line = line;
            this.origin = origin;
        }
    }

    @Override
    public void onFinish(
            ConfigurationPropertyName name, Bindable<?> target, BindContext context, @Nullable Object result)
            throws Exception {
        if (result == null && OBSERVATORY.isAncestorOf(name) && PropertyExpectations.isSingleValue(target.getType())) {
            Optional<ConfigurationProperty> nested = firstDescendant(name, context);
            if (nested.isPresent()) {
                String found = nested.get().getName().isNumericIndex(name.getNumberOfElements())
                        ? "(a list)"
                        : "(a nested map)";
                throw new MismatchException(
                        new ReportLine(name.toString(), found, PropertyExpectations.expected(target.getType())),
                        nested.get().getOrigin());
            }
        }
        super.onFinish(name, target, context, result);
    }

    @Override
    public @Nullable Object onFailure(
            ConfigurationPropertyName name, Bindable<?> target, BindContext context, Exception error) throws Exception {
        if (error instanceof ConverterNotFoundException
                && (OBSERVATORY.equals(name) || OBSERVATORY.isAncestorOf(name))) {
            Optional<ConfigurationProperty> property = property(name, context);
            if (property.isPresent()) {
                throw new MismatchException(
                        new ReportLine(
                                name.toString(),
                                ReportLine.printable(
                                        name.toString(), property.get().getValue()),
                                PropertyExpectations.expected(target.getType())),
                        property.get().getOrigin());
            }
        }
        return super.onFailure(name, target, context, error);
    }

    private static Optional<ConfigurationProperty> property(ConfigurationPropertyName name, BindContext context) {
        for (ConfigurationPropertySource source : context.getSources()) {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property != null) {
                return Optional.of(property);
            }
        }
        return Optional.empty();
    }

    /**
     * The first property below {@code name}. Each source is asked cheaply first: this runs for every value left
     * unset.
     */
    private static Optional<ConfigurationProperty> firstDescendant(
            ConfigurationPropertyName name, BindContext context) {
        for (ConfigurationPropertySource source : context.getSources()) {
            if (source instanceof IterableConfigurationPropertySource iterable
                    && source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
                Optional<ConfigurationPropertyName> descendant =
                        iterable.stream().filter(name::isAncestorOf).findFirst();
                if (descendant.isPresent()) {
                    return Optional.ofNullable(iterable.getConfigurationProperty(descendant.get()));
                }
            }
        }
        return Optional.empty();
    }
}
