package io.observatory.config;

import io.observatory.health.ExpectedStatus;
import io.observatory.text.GoDuration;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;

/**
 * What one bound settings record (the core's, or a capability's section) expects at a property name below it, read
 * from the records' components (one component per key, in declaration order): the keys of a section, where a list or
 * a single value belongs, and what a value of a type looks like. Feeds the one-line reports of
 * {@link ConfigReports} and {@link ShapeCheck}.
 */
final class PropertyExpectations {

    private final ConfigurationPropertyName rootName;
    private final ResolvableType root;
    private final List<String> sectionKeys;

    /** What a value of each type bound from one value looks like (primitives as their wrappers). */
    private static final Map<Class<?>, String> SINGLE_VALUES = Map.of(
            Integer.class,
            "a whole number",
            Long.class,
            "a whole number",
            Double.class,
            "a decimal number, e.g. 0.3",
            Boolean.class,
            "true or false",
            Duration.class,
            GoDuration.EXPECTED,
            ExpectedStatus.class,
            ExpectedStatus.EXPECTED,
            String.class,
            "a single value",
            InetAddress.class,
            "an IP address or a resolvable host name, e.g. 127.0.0.1");

    /**
     * @param rootName where the record is bound, e.g. {@code observatory} or {@code observatory.mesh}
     * @param root        the record
     * @param sectionKeys keys bound beside the record's own at {@code rootName}, listed after them (the capabilities'
     *                    sections below the core's record, e.g. {@code mesh}); empty for a section's record
     */
    PropertyExpectations(ConfigurationPropertyName rootName, Class<?> root, List<String> sectionKeys) {
        this.rootName = rootName;
        this.root = ResolvableType.forClass(root);
        this.sectionKeys = List.copyOf(sectionKeys);
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
            return isSection(element)
                    ? "a list of sections with " + String.join(", ", keys(element))
                    : "a list of values";
        }
        if (Map.class.isAssignableFrom(raw)) {
            return "a map of names to values";
        }
        if (raw.isEnum()) {
            return Arrays.stream(raw.getEnumConstants())
                    .map(constant ->
                            ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .collect(Collectors.joining(", ", "one of ", ""));
        }
        return SINGLE_VALUES.getOrDefault(raw, "a value of type " + raw.getSimpleName());
    }

    /** Returns {@code true} for a type bound from one value: not a section, list or map. */
    static boolean isSingleValue(ResolvableType type) {
        Class<?> raw = type.toClass();
        return !isSection(raw) && !List.class.isAssignableFrom(raw) && !Map.class.isAssignableFrom(raw);
    }

    /**
     * Explains why {@code property} (below the record's name) was left unbound, walking its name down the records:
     * an unknown key is reported with its value, or as {@code (a list)} or {@code (a nested map)} when it holds more
     * keys, and the keys known at its level; a map where a list belongs and a
     * list where a section belongs are reported at that property as {@code (a nested map)} or {@code (a list)}.
     * (A map or list where a single value belongs is caught earlier, by {@link ShapeCheck}.)
     */
    ReportLine unbound(ConfigurationProperty property) {
        ConfigurationPropertyName name = property.getName();
        String value = ReportLine.printable(name.toString(), property.getValue());
        int known = rootName.getNumberOfElements();
        while (known < name.getNumberOfElements() && typeAt(name, known + 1) != null) {
            known++;
        }
        ResolvableType type = Objects.requireNonNull(typeAt(name, known));
        Class<?> raw = type.toClass();
        String parent = name.chop(known).toString();
        if (known < name.getNumberOfElements() && isSection(raw)) {
            if (name.isNumericIndex(known)) {
                return new ReportLine(parent, "(a list)", expected(type));
            }
            List<String> keys = known == rootName.getNumberOfElements() ? rootKeys() : keys(raw);
            String expected = keys.isEmpty()
                    ? "no property: " + parent + " is an empty section ({})"
                    : "a known property of " + parent + ": " + String.join(", ", keys);
            return known + 1 == name.getNumberOfElements()
                    ? new ReportLine(name.toString(), value, expected)
                    : new ReportLine(
                            name.chop(known + 1).toString(),
                            name.isNumericIndex(known + 1) ? "(a list)" : "(a nested map)",
                            expected);
        }
        if (known < name.getNumberOfElements() && List.class.isAssignableFrom(raw)) {
            return new ReportLine(parent, "(a nested map)", expected(type));
        }
        return new ReportLine(name.toString(), value, "no such property; check the spelling");
    }

    /**
     * Orders the field paths of a record's violations, e.g. {@code port} or {@code subjectSelector[1]}, by the
     * declaration order of their first element in the record bound at {@code name}; paths of unknown keys go last.
     */
    Comparator<String> declarationOrder(ConfigurationPropertyName name) {
        ResolvableType type = typeAt(name, name.getNumberOfElements());
        Class<?> section = type != null && isSection(type.toClass()) ? type.toClass() : null;
        return Comparator.comparingInt(field -> section == null
                ? Integer.MAX_VALUE
                : index(section, field.split("[.\\[]", 2)[0].toLowerCase(Locale.ROOT)));
    }

    /** The keys known at {@code rootName}: the record's, then the sections bound beside it. */
    private List<String> rootKeys() {
        return Stream.concat(keys(root.toClass()).stream(), sectionKeys.stream())
                .toList();
    }

    /** The type bound at the first {@code elements} elements of {@code name}, or {@code null} when none is. */
    private @Nullable ResolvableType typeAt(ConfigurationPropertyName name, int elements) {
        if (!rootName.equals(name) && !rootName.isAncestorOf(name)) {
            return null;
        }
        ResolvableType type = root;
        for (int i = rootName.getNumberOfElements(); i < elements; i++) {
            Class<?> raw = type.toClass();
            if (List.class.isAssignableFrom(raw) && name.isNumericIndex(i)) {
                type = type.asCollection().getGeneric();
            } else if (Map.class.isAssignableFrom(raw)) {
                type = type.asMap().getGeneric(1);
            } else if (isSection(raw) && !name.isNumericIndex(i)) {
                int component = index(raw, name.getElement(i, Form.UNIFORM));
                if (component == Integer.MAX_VALUE) {
                    return null;
                }
                type = ResolvableType.forMethodReturnType(raw.getRecordComponents()[component].getAccessor());
            } else {
                return null;
            }
        }
        return type;
    }

    /** Whether {@code type} is bound as a section of keys: the settings are records, and no single value is one. */
    private static boolean isSection(Class<?> type) {
        return type.isRecord();
    }

    /** The keys of {@code section}, a settings record, in kebab case. */
    static Set<String> keysOf(Class<?> section) {
        return Set.copyOf(keys(section));
    }

    /** The section's keys in kebab case, in declaration order. */
    private static List<String> keys(Class<?> section) {
        return Arrays.stream(section.getRecordComponents())
                .map(component -> DataObjectPropertyName.toDashedForm(component.getName()))
                .toList();
    }

    /**
     * Where the component bound to {@code uniformKey} (lower case, no dashes, e.g. {@code probeinterval}) is declared
     * in {@code section}; {@link Integer#MAX_VALUE} when none is.
     */
    private static int index(Class<?> section, String uniformKey) {
        RecordComponent[] components = section.getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            if (components[i].getName().toLowerCase(Locale.ROOT).equals(uniformKey)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }
}
