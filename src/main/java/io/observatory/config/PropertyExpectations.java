package io.observatory.config;

import io.observatory.text.GoDuration;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * What {@link ObservatoryProperties} expects at a property name, read from its declared fields (one field per key, in
 * declaration order): the keys of a section, where a list or a single value belongs, and what a value of a type looks
 * like. Feeds the one-line reports of {@link ObservatoryBindFailureAnalyzer}.
 */
final class PropertyExpectations {

    private static final ResolvableType ROOT = ResolvableType.forClass(ObservatoryProperties.class);

    private PropertyExpectations() {
    }

    /**
     * One line of a report: {@code property: found (expected: expected)}.
     *
     * @param property the property to change, e.g. {@code observatory.standard.probe-intreval}
     * @param found what was found there, printable and free of secrets, e.g. {@code 5s} or {@code (a nested map)}
     * @param expected what belongs there
     */
    record Mismatch(String property, String found, String expected) {

        /** Returns the one-line form. */
        String describe() {
            return InvalidConfigException.describeFound(property, found, expected);
        }
    }

    /**
     * Returns what a value bound to {@code type} looks like, e.g. {@code a whole number}, {@code one of direct, http,
     * socks} or {@code a section with subject-selector, probe-url, probe-interval, enable-concurrency}.
     */
    static String expected(ResolvableType type) {
        Class<?> raw = ClassUtils.resolvePrimitiveIfNecessary(type.toClass());
        if (isSection(raw)) {
            return "a section with " + String.join(", ", keys(raw));
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
        if (raw == String.class) {
            return "a single value";
        }
        return "a value of type " + raw.getSimpleName();
    }

    /** Returns {@code true} for a type bound from one value: not a section, list or map. */
    static boolean isSingleValue(ResolvableType type) {
        Class<?> raw = type.toClass();
        return !isSection(raw) && !List.class.isAssignableFrom(raw) && !Map.class.isAssignableFrom(raw);
    }

    /**
     * Explains why {@code property} (under {@code observatory}) was left unbound, walking its name down the declared
     * types: an unknown key is reported with its value and the keys known at its level; a map where a list belongs
     * and a list where a section belongs are reported at that property as {@code (a nested map)} or {@code (a list)}.
     * (A map or list where a single value belongs is caught earlier, by {@link ObservatoryBindHandlerAdvisor}.)
     */
    static Mismatch unbound(ConfigurationProperty property) {
        ConfigurationPropertyName name = property.getName();
        String value = InvalidConfigException.printable(name.toString(), String.valueOf(property.getValue()));
        ResolvableType type = ROOT;
        for (int i = 1; i < name.getNumberOfElements(); i++) {
            Class<?> raw = type.toClass();
            ConfigurationPropertyName parent = name.chop(i);
            if (isSection(raw)) {
                if (name.isNumericIndex(i)) {
                    return new Mismatch(parent.toString(), "(a list)", expected(type));
                }
                Optional<Field> field = field(raw, name.getElement(i, Form.UNIFORM));
                if (field.isEmpty()) {
                    return new Mismatch(name.toString(), value,
                            "a known property of " + parent + ": " + String.join(", ", keys(raw)));
                }
                type = ResolvableType.forField(field.get());
            } else if (List.class.isAssignableFrom(raw)) {
                if (!name.isNumericIndex(i)) {
                    return new Mismatch(parent.toString(), "(a nested map)", expected(type));
                }
                type = type.asCollection().getGeneric();
            } else if (Map.class.isAssignableFrom(raw)) {
                type = type.asMap().getGeneric(1);
            } else {
                break;
            }
        }
        return new Mismatch(name.toString(), value, "no such property; check the spelling");
    }

    private static boolean isSection(Class<?> type) {
        return type == ObservatoryProperties.class || type.getEnclosingClass() == ObservatoryProperties.class;
    }

    private static List<Field> fields(Class<?> section) {
        return Arrays.stream(section.getDeclaredFields())
                .filter(field -> !Modifier.isStatic(field.getModifiers()))
                .toList();
    }

    /** The section's keys in kebab case, in declaration order. */
    private static List<String> keys(Class<?> section) {
        return fields(section).stream().map(field -> DataObjectPropertyName.toDashedForm(field.getName())).toList();
    }

    /** The field bound to a key given in Spring's uniform form (lower case, no dashes), e.g. {@code probeinterval}. */
    private static Optional<Field> field(Class<?> section, String uniformKey) {
        return fields(section).stream()
                .filter(field -> field.getName().toLowerCase(Locale.ROOT).equals(uniformKey))
                .findFirst();
    }
}
