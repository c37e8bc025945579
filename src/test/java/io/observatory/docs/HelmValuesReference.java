package io.observatory.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The Helm chart's values table ({@code docs/deploy.md}), built from {@code values.yaml}: every key with a
 * {@code # --} comment (helm-docs' convention) gives a row of its dotted path, its default as the file has it and the
 * comment. A comment line indented further than its first (a commented-out example) is not part of the description.
 */
final class HelmValuesReference {

    private static final Pattern KEY = Pattern.compile("^( *)([A-Za-z0-9_.-]+):(.*)$");

    /** The table's rows in the file's order, as Markdown. */
    String build(Path valuesYaml) {
        List<String> lines;
        String content;
        try {
            content = Files.readString(valuesYaml);
            lines = content.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Object values = new Yaml().load(content);
        Deque<Key> path = new ArrayDeque<>();
        StringBuilder description = null;
        List<String> rows = new ArrayList<>();
        for (String line : lines) {
            String stripped = line.strip();
            if (stripped.startsWith("# -- ")) {
                description = new StringBuilder(stripped.substring("# -- ".length()));
                continue;
            }
            if (stripped.startsWith("#")) {
                String text = stripped.substring(1);
                if (description != null
                        && !text.startsWith("   ")
                        && !text.strip().startsWith("Example")) {
                    description.append(' ').append(text.strip());
                } else if (description != null) {
                    description.append('\u0000');
                }
                continue;
            }
            if (stripped.isEmpty()) {
                description = null;
                continue;
            }
            Matcher key = KEY.matcher(line);
            if (!key.matches()) {
                continue;
            }
            int indent = key.group(1).length();
            while (!path.isEmpty() && path.peekLast().indent() >= indent) {
                path.removeLast();
            }
            path.addLast(new Key(indent, key.group(2)));
            if (description != null) {
                List<String> names = path.stream().map(Key::name).toList();
                String text = description.toString();
                int example = text.indexOf('\u0000');
                rows.add("| `" + String.join(".", names) + "` | " + cell(defaultOf(values, names)) + " | "
                        + cell(example < 0 ? text : text.substring(0, example)) + " |");
                description = null;
            }
        }
        return "| key | default | description |\n|---|---|---|\n" + String.join("\n", rows) + "\n";
    }

    /** The default at {@code names} as YAML in one line: {@code ""}, {@code 9090}, {@code {}}, a flow mapping. */
    @SuppressWarnings("unchecked")
    private static String defaultOf(Object values, List<String> names) {
        Object value = values;
        for (String name : names) {
            value = value instanceof Map<?, ?> map ? ((Map<String, Object>) map).get(name) : null;
        }
        if (value instanceof String text) {
            return text.isEmpty() ? "`\"\"`" : "`" + text + "`";
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
        options.setWidth(Integer.MAX_VALUE);
        return "`" + new Yaml(options).dump(value).strip() + "`";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replaceAll("\\s+", " ").strip();
    }

    private record Key(int indent, String name) {}
}
