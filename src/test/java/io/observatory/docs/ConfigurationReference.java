package io.observatory.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration reference ({@code docs/configuration.md}), built from what the build knows: Spring Boot's
 * configuration metadata, which the configuration processor writes from the settings records' Javadoc, and, for the
 * records bound as list items (an outbound, a mesh server), the {@code @param} Javadoc of their source. One table per
 * section: property, type, default, description. A property without a description or a default is a problem the test
 * reports.
 */
final class ConfigurationReference {

    /** The sections in the order the reference lists them; a section not named here comes last, by name. */
    private static final List<String> ORDER = List.of(
            "outbounds",
            "standard",
            "burst",
            "probe",
            "passive",
            "availability",
            "api",
            "metrics",
            "reload",
            "mesh",
            "state");

    private static final Pattern DEFAULT = Pattern.compile("\\s*[.;]?\\s*Default: (.*)$", Pattern.DOTALL);
    private static final Pattern NO_DEFAULT = Pattern.compile("[,.]?\\s*[Nn]o default\\.?");
    private static final Pattern REQUIRED = Pattern.compile("\\bRequired\\b");
    private static final Pattern PARAM =
            Pattern.compile("@param\\s+(\\w+)\\s+(.*?)(?=\\n\\s*\\*\\s*@|\\n\\s*\\*/)", Pattern.DOTALL);

    private final Path sources;
    private final List<String> problems = new ArrayList<>();

    /** @param sources the main Java sources, for the Javadoc of list items' records */
    ConfigurationReference(Path sources) {
        this.sources = sources;
    }

    /** The problems found while building: properties without a description or a default. */
    List<String> problems() {
        return problems;
    }

    /** The reference's tables, as Markdown, from the metadata file. */
    String build(Path metadata) {
        JsonNode root = JsonMapper.builder().build().readTree(metadata.toFile());
        Map<String, List<Row>> sections = new LinkedHashMap<>();
        for (JsonNode property : root.get("properties")) {
            String name = property.get("name").asString();
            if (!name.startsWith("observatory.")) {
                continue;
            }
            String type = property.get("type").asString();
            String section = name.split("\\.")[1];
            List<Row> rows = sections.computeIfAbsent(section, unused -> new ArrayList<>());
            JsonNode value = property.get("defaultValue");
            String description = text(property.get("description"));
            rows.add(row(name, typeName(type), value == null ? null : printable(value), description));
            Class<?> item = listItem(type);
            if (item != null && item.isRecord()) {
                items(name + "[]", item, rows);
            }
        }
        StringBuilder out = new StringBuilder();
        sections.keySet().stream()
                .sorted((a, b) ->
                        Integer.compare(rank(a), rank(b)) != 0 ? Integer.compare(rank(a), rank(b)) : a.compareTo(b))
                .forEach(section -> {
                    out.append("\n### `observatory.").append(section).append("`\n\n");
                    out.append("| property | type | default | description |\n|---|---|---|---|\n");
                    sections.get(section).stream()
                            .sorted((a, b) -> a.name().compareTo(b.name()))
                            .forEach(row -> out.append("| `")
                                    .append(row.name())
                                    .append("` | ")
                                    .append(row.type())
                                    .append(" | ")
                                    .append(row.defaultValue())
                                    .append(" | ")
                                    .append(row.description())
                                    .append(" |\n"));
                });
        return out.toString();
    }

    /** A record bound as a list item: one row per component, from its source's {@code @param} Javadoc. */
    private void items(String prefix, Class<?> record, List<Row> rows) {
        Map<String, String> params = params(record);
        for (RecordComponent component : record.getRecordComponents()) {
            String name = prefix + "." + dashed(component.getName());
            String description = params.getOrDefault(component.getName(), "");
            rows.add(row(name, typeName(component.getGenericType()), null, description));
            Class<?> item = listItem(component.getGenericType().getTypeName());
            if (item != null && item.isRecord()) {
                items(name + "[]", item, rows);
            }
        }
    }

    private Row row(String name, String type, String metadataDefault, String description) {
        String text = description.replaceAll("\\s+", " ").strip();
        String defaultValue = metadataDefault;
        Matcher stated = DEFAULT.matcher(text);
        Matcher none = NO_DEFAULT.matcher(text);
        if (stated.find()) {
            if (defaultValue == null || defaultValue.isEmpty()) {
                defaultValue = stated.group(1).replaceAll("\\.$", "").strip();
            }
            text = text.substring(0, stated.start()).strip();
        } else if (none.find()) {
            defaultValue = defaultValue == null ? "none" : defaultValue;
            text = (text.substring(0, none.start()) + text.substring(none.end())).strip();
        }
        if (defaultValue == null && REQUIRED.matcher(text).find()) {
            defaultValue = "required";
        }
        if (text.isEmpty()) {
            problems.add(name + ": no description (expected: the @param Javadoc of its settings record)");
        }
        if (defaultValue == null) {
            problems.add(name + ": no default (expected: @DefaultValue, or \"Default: ...\" in its Javadoc, e.g."
                    + " \"Default: none\")");
            defaultValue = "";
        }
        if (type.equals("duration") && !defaultValue.isEmpty() && defaultValue.matches("-?\\d+")) {
            problems.add(name + ": default " + defaultValue + " has no unit (expected: a duration such as 10s)");
        }
        return new Row(
                name,
                type,
                cell(name, defaultValue.isEmpty() ? "(empty)" : defaultValue),
                cell(name, capitalized(text)));
    }

    /** The {@code @param} descriptions of {@code record}'s source, by component name. */
    private Map<String, String> params(Class<?> record) {
        Class<?> outer = record;
        while (outer.getEnclosingClass() != null) {
            outer = outer.getEnclosingClass();
        }
        Path file = sources.resolve(outer.getName().replace('.', '/') + ".java");
        String source;
        try {
            source = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int declaration = source.indexOf("record " + record.getSimpleName() + "(");
        int comment = source.lastIndexOf("/**", declaration);
        String javadoc = source.substring(comment, source.indexOf("*/", comment) + 2);
        Map<String, String> params = new LinkedHashMap<>();
        Matcher param = PARAM.matcher(javadoc);
        while (param.find()) {
            params.put(
                    param.group(1),
                    param.group(2).replaceAll("\\n\\s*\\*\\s?", " ").strip());
        }
        return params;
    }

    private static Class<?> listItem(String type) {
        Matcher list = Pattern.compile("java\\.util\\.List<([\\w.$]+)>").matcher(type);
        if (!list.matches()) {
            return null;
        }
        try {
            return Class.forName(list.group(1));
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** A type as a reader names it: duration, integer, decimal, boolean, text, one of ..., list of .... */
    private static String typeName(Type type) {
        if (type instanceof ParameterizedType parameterized) {
            String raw = parameterized.getRawType().getTypeName();
            Type[] arguments = parameterized.getActualTypeArguments();
            if (raw.equals("java.util.List")) {
                return "list of " + plural(typeName(arguments[0]));
            }
            if (raw.equals("java.util.Map")) {
                return "map of " + typeName(arguments[0]) + " to " + typeName(arguments[1]);
            }
        }
        return typeName(type.getTypeName());
    }

    private static String typeName(String type) {
        return switch (type) {
            case "java.time.Duration" -> "duration";
            case "java.lang.Integer", "int" -> "integer";
            case "java.lang.Double", "double" -> "decimal";
            case "java.lang.Boolean", "boolean" -> "boolean";
            case "java.lang.String" -> "text";
            case "java.util.List<java.lang.String>" -> "list of texts";
            case "java.util.Map<java.lang.String,java.lang.String>" -> "map of text to text";
            case "io.observatory.health.ExpectedStatus" -> "statuses";
            default -> {
                Class<?> item = listItem(type);
                if (item != null) {
                    yield "list of " + (item.isRecord() ? "sections" : plural(typeName(item.getName())));
                }
                try {
                    Class<?> found = Class.forName(type);
                    if (found.isEnum()) {
                        yield Arrays.stream(found.getEnumConstants())
                                .map(constant -> ((Enum<?>) constant)
                                        .name()
                                        .toLowerCase(Locale.ROOT)
                                        .replace('_', '-'))
                                .collect(Collectors.joining(", ", "one of ", ""));
                    }
                    yield found.isRecord() ? "section" : found.getSimpleName();
                } catch (ClassNotFoundException e) {
                    yield type;
                }
            }
        };
    }

    private static String plural(String type) {
        return type.endsWith("s") ? type : type + "s";
    }

    private static String printable(JsonNode value) {
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.asString()));
            return String.join(", ", items);
        }
        return value.isTextual() ? value.asString() : value.toString();
    }

    private static String text(JsonNode node) {
        return node == null ? "" : node.asString();
    }

    private static String dashed(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /**
     * Text as one Markdown table cell: no line breaks, pipes escaped, Javadoc's {@code {@code x}} as code (braces
     * inside it balanced, as Javadoc reads them) and {@code {@link a.B#c}} as its plain name. Any other inline tag
     * ({@code {@value}}, a method reference) is a problem: the reader would see it raw.
     */
    private String cell(String property, String text) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (int start = text.indexOf("{@", at); start >= 0; start = text.indexOf("{@", at)) {
            int end = closingBrace(text, start);
            String tag = text.substring(start + 2, end);
            out.append(text, at, start);
            if (tag.startsWith("code ")) {
                out.append('`').append(tag.substring("code ".length())).append('`');
            } else if (tag.startsWith("link ") && !tag.contains("(")) {
                String target = tag.substring("link ".length()).strip();
                out.append(target.substring(target.indexOf('#') + 1));
            } else {
                problems.add(property + ": its description has {@" + tag + "}, which the reference cannot render");
                out.append(tag);
            }
            at = end + 1;
        }
        out.append(text.substring(at));
        return out.toString().replace("|", "\\|").replaceAll("\\s+", " ").strip();
    }

    /** The index of the brace that closes the inline tag opening at {@code start}, braces inside it balanced. */
    private static int closingBrace(String text, int start) {
        int depth = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unclosed inline tag in: " + text);
    }

    private static int rank(String section) {
        int index = ORDER.indexOf(section);
        return index < 0 ? ORDER.size() : index;
    }

    private record Row(String name, String type, String defaultValue, String description) {}
}
