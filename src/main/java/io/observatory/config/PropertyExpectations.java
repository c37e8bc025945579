package io.observatory.config;

import io.observatory.health.ExpectedStatus;
import io.observatory.text.GoDuration;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * What {@link ObservatoryConfig} expects at a property name, read from its records' components (one component per
 * key, in declaration order): the keys of a section, where a list or a single value belongs, and what a value of a
 * type looks like. Feeds the one-line reports of {@link ConfigFailureAnalyzer} and {@link ShapeCheck}.
 */
final class PropertyExpectations {

    private static final ResolvableType ROOT = ResolvableType.forClass(ObservatoryConfig.class);

    private PropertyExpectations() {
    }

    /**
     * Returns what a value bound to {@code type} looks like, e.g. {@code a whole number}, {@code one of direct, http,
     * socks} or {@code a section with subject-selector, probe-url, probe-interval, enable-concurrency}.
     */
    static String expected(ResolvableType type) {
        Class<?> raw = ClassUtils.resolvePrimitiveIfNecessary(type.toClass());
        if (isSection(raw)) {
            List<String> keys = keys(raw);
            return keys.isEmpty() ? "an empty section ({})" : "a section with " + String.join(", ", keys);
        }
        if (List.class.isAssignableFrom(raw)) {
            Class<?> element = type.asCollection().getGeneric().toClass();
            return isSection(element) ? "a list of sections with " + String.join(", ", keys(element))
                    : "a list of values";
        }
        if (Map.class.isAssignableFrom(raw)) {
            return "a map of names to values";
        }
        if (raw.isEnum()) {
            return Arrays.stream(raw.getEnumConstants())
                    .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
                    .collect(Collectors.joining(", ", "one of ", ""));
        }
        if (raw == Integer.class || raw == Long.class) {
            return "a whole number";
        }
        if (raw == Double.class) {
            return "a decimal number, e.g. 0.3";
        }
        if (raw == Boolean.class) {
            return "true or false";
        }
        if (raw == Duration.class) {
            return GoDuration.EXPECTED;
        }
        if (raw == ExpectedStatus.class) {
            return ExpectedStatus.EXPECTED;
        }
        return raw == String.class ? "a single value" : "a value of type " + raw.getSimpleName();
    }

    /** Returns {@code true} for a type bound from one value: not a section, list or map. */
    static boolean isSingleValue(ResolvableType type) {
        Class<?> raw = type.toClass();
        return !isSection(raw) && !List.class.isAssignableFrom(raw) && !Map.class.isAssignableFrom(raw);
    }

    /**
     * Explains why {@code property} (under {@code observatory}) was left unbound, walking its name down the records:
     * an unknown key is reported with its value and the keys known at its level; a map where a list belongs and a
     * list where a section belongs are reported at that property as {@code (a nested map)} or {@code (a list)}.
     * (A map or list where a single value belongs is caught earlier, by {@link ShapeCheck}.)
     */
    static ReportLine unbound(ConfigurationProperty property) {
        ConfigurationPropertyName name = property.getName();
        String value = ReportLine.printable(name.toString(), property.getValue());
        ResolvableType type = ROOT;
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            Class<?> raw = type.toClass();
            ConfigurationPropertyName parent = name.chop(i);
            if (isSection(raw)) {
                if (name.isNumericIndex(i)) {
                    return new ReportLine(parent.toString(), "(a list)", expected(type));
                }
                Optional<RecordComponent> component = component(raw, name.getElement(i, Form.UNIFORM));
                if (component.isEmpty()) {
                    return new ReportLine(name.toString(), value,
                            "a known property of " + parent + ": " + String.join(", ", keys(raw)));
                }
                type = ResolvableType.forMethodReturnType(component.get().getAccessor());
            } else if (List.class.isAssignableFrom(raw)) {
                if (!name.isNumericIndex(i)) {
                    return new ReportLine(parent.toString(), "(a nested map)", expected(type));
                }
                type = type.asCollection().getGeneric();
            } else if (Map.class.isAssignableFrom(raw)) {
                type = type.asMap().getGeneric(1);
            } else {
                break;
            }
        }
        return new ReportLine(name.toString(), value, "no such property; check the spelling");
    }

    /** The record bound at {@code name} (a section, or a list element that is one), or {@code null}. */
    static @Nullable Class<?> sectionAt(ConfigurationPropertyName name) {
        ResolvableType type = ROOT;
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            Class<?> raw = type.toClass();
            if (List.class.isAssignableFrom(raw)) {
                type = type.asCollection().getGeneric();
                continue;
            }
            Optional<RecordComponent> component = isSection(raw)
                    ? component(raw, name.getElement(i, Form.UNIFORM)) : Optional.empty();
            if (component.isEmpty()) {
                return null;
            }
            type = ResolvableType.forMethodReturnType(component.get().getAccessor());
        }
        return isSection(type.toClass()) ? type.toClass() : null;
    }

    /**
     * Where {@code key} (a component's Java name or its kebab-case key) is declared in {@code section}, so that
     * reports follow declaration order; {@link Integer#MAX_VALUE} when it is not a key of {@code section}.
     */
    static int declarationIndex(@Nullable Class<?> section, String key) {
        if (section == null) {
            return Integer.MAX_VALUE;
        }
        String uniform = key.replace("-", "").toLowerCase(Locale.ROOT);
        RecordComponent[] components = section.getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            if (components[i].getName().toLowerCase(Locale.ROOT).equals(uniform)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static boolean isSection(Class<?> type) {
        return type.isRecord() && type.getPackageName().equals(ObservatoryConfig.class.getPackageName());
    }

    /** The section's keys in kebab case, in declaration order. */
    private static List<String> keys(Class<?> section) {
        return Arrays.stream(section.getRecordComponents())
                .map(component -> DataObjectPropertyName.toDashedForm(component.getName()))
                .toList();
    }

    /** The component bound to a key given in Spring's uniform form (lower case, no dashes), e.g. {@code probeinterval}. */
    private static Optional<RecordComponent> component(Class<?> section, String uniformKey) {
        return Arrays.stream(section.getRecordComponents())
                .filter(component -> component.getName().toLowerCase(Locale.ROOT).equals(uniformKey))
                .findFirst();
    }
}
