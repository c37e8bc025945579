package io.observatory.dashboard;

import io.observatory.dashboard.GrafanaDashboard.PromQlUse;
import io.observatory.dashboard.PromQl.Selector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The series of one scrape (Prometheus text or OpenMetrics exposition), by sample name with the label names seen on
 * it, and the check of a dashboard query against them: every metric it selects is a sample name of the scrape (a
 * histogram's {@code _bucket}, {@code _count} and {@code _sum} each by its own name), every label name its matchers,
 * grouping clauses or {@code label_values} use is on the series it selects. {@code job} and {@code instance} pass:
 * Prometheus adds them to every series it scrapes.
 */
final class ScrapedSeries {

    /** The labels Prometheus attaches to every scraped series (its target labels). */
    static final Set<String> TARGET_LABELS = Set.of("job", "instance");

    private final Map<String, Set<String>> labelsBySample;

    private ScrapedSeries(Map<String, Set<String>> labelsBySample) {
        this.labelsBySample = labelsBySample;
    }

    /**
     * Reads an exposition: each line that is neither empty nor a comment is a sample,
     * {@code name{label="value",...} value [timestamp]}.
     *
     * @throws IllegalArgumentException on a sample whose labels do not close
     */
    static ScrapedSeries parse(String exposition) {
        Map<String, Set<String>> labelsBySample = new HashMap<>();
        exposition
                .lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .forEach(line -> {
                    int brace = line.indexOf('{');
                    int space = line.indexOf(' ');
                    boolean labelled = brace >= 0 && (space < 0 || brace < space);
                    String name = line.substring(0, labelled ? brace : space < 0 ? line.length() : space);
                    Set<String> labels = labelsBySample.computeIfAbsent(name, unused -> new HashSet<>());
                    if (labelled) {
                        labels.addAll(labelNames(line, brace + 1));
                    }
                });
        return new ScrapedSeries(labelsBySample);
    }

    /** The label names of {@code label="value",...}} from {@code at}, values read with their escapes. */
    private static List<String> labelNames(String line, int at) {
        List<String> names = new ArrayList<>();
        int i = at;
        while (i < line.length() && line.charAt(i) != '}') {
            int equals = line.indexOf("=\"", i);
            if (equals < 0) {
                throw new IllegalArgumentException("unclosed labels in sample: " + line);
            }
            names.add(line.substring(i, equals));
            i = equals + 2;
            while (i < line.length() && line.charAt(i) != '"') {
                i += line.charAt(i) == '\\' ? 2 : 1;
            }
            i++;
            if (i < line.length() && line.charAt(i) == ',') {
                i++;
            }
        }
        if (i >= line.length()) {
            throw new IllegalArgumentException("unclosed labels in sample: " + line);
        }
        return names;
    }

    /** The sample names of the scrape. */
    Set<String> samples() {
        return labelsBySample.keySet();
    }

    /**
     * What in {@code use} the scrape lacks, one line each naming the query's place; empty when nothing. Grouping
     * labels are checked once every selected metric is found (a missing metric says enough).
     */
    List<String> problems(PromQlUse use) {
        List<String> problems = new ArrayList<>();
        Set<String> selectedLabels = new HashSet<>(TARGET_LABELS);
        boolean everySelectorFound = true;
        for (Selector selector : use.query().selectors()) {
            Set<String> labels = labelsBySample.get(selector.metric());
            if (labels == null) {
                problems.add(use.where() + ": no series " + selector.metric() + " in the scrape");
                everySelectorFound = false;
                continue;
            }
            selectedLabels.addAll(labels);
            selector.labels().stream()
                    .filter(label -> !TARGET_LABELS.contains(label) && !labels.contains(label))
                    .forEach(label -> problems.add(use.where() + ": " + selector.metric() + " has no label " + label
                            + " (it has " + labels.stream().sorted().toList() + ")"));
        }
        if (everySelectorFound) {
            use.query().groupingLabels().stream()
                    .filter(label -> !selectedLabels.contains(label))
                    .forEach(label -> problems.add(use.where() + ": no series it selects has the label " + label));
        }
        return problems;
    }
}
