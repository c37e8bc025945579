package io.observatory.dashboard;

import io.observatory.dashboard.PromQl.Query;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The repository's Grafana dashboard as Grafana reads it: its panels (those inside rows too) and the PromQL it runs,
 * each panel target's {@code expr} and each query variable's query ({@code label_values(selector, label)} or
 * {@code query_result(expression)}).
 */
final class GrafanaDashboard {

    /** The one copy, which the Helm chart ships with {@code .Files.Get}. */
    static final Path FILE = Path.of("helm/observatory/dashboards/observatory.json");

    private static final Pattern LABEL_VALUES =
            Pattern.compile("\\s*label_values\\((.+),\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\)\\s*", Pattern.DOTALL);
    private static final Pattern QUERY_RESULT = Pattern.compile("\\s*query_result\\((.+)\\)\\s*", Pattern.DOTALL);

    /**
     * One PromQL expression of the dashboard.
     *
     * @param where      the panel and target, or the variable, for messages
     * @param expression as written, Grafana variables included
     * @param promql     the PromQL in it that Prometheus evaluates: the expression, or a variable's selector
     * @param query      what it reads; for {@code label_values} the label is one of the grouping labels
     */
    record PromQlUse(String where, String expression, String promql, Query query) {}

    private final JsonNode root;

    private GrafanaDashboard(JsonNode root) {
        this.root = root;
    }

    /** Parses {@link #FILE}; fails on invalid JSON. */
    static GrafanaDashboard read() {
        return new GrafanaDashboard(JsonMapper.builder().build().readTree(FILE.toFile()));
    }

    /** The dashboard object. */
    JsonNode root() {
        return root;
    }

    /** Every panel, rows and the panels of collapsed rows included, in order. */
    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : root.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    /**
     * Every PromQL expression: panel targets first, then query variables.
     *
     * @throws IllegalArgumentException when one does not parse, or a variable query is neither
     *     {@code label_values(selector, label)} nor {@code query_result(expression)}
     */
    List<PromQlUse> queries() {
        List<PromQlUse> uses = new ArrayList<>();
        for (JsonNode panel : panels()) {
            for (JsonNode target : panel.path("targets")) {
                String expression = target.path("expr").asString();
                uses.add(new PromQlUse(
                        "panel \"" + panel.path("title").asString() + "\" target "
                                + target.path("refId").asString(),
                        expression,
                        expression,
                        PromQl.parse(expression)));
            }
        }
        for (JsonNode variable : root.path("templating").path("list")) {
            if (variable.path("type").asString().equals("query")) {
                JsonNode query = variable.path("query");
                String expression = query.isObject() ? query.path("query").asString() : query.asString();
                uses.add(variableQuery("variable " + variable.path("name").asString(), expression));
            }
        }
        return uses;
    }

    /** What a Prometheus query variable reads, {@code where} naming it. */
    static PromQlUse variableQuery(String where, String expression) {
        Matcher labelValues = LABEL_VALUES.matcher(expression);
        if (labelValues.matches()) {
            Query selector = PromQl.parse(labelValues.group(1));
            Set<String> labels = new LinkedHashSet<>(selector.groupingLabels());
            labels.add(labelValues.group(2));
            return new PromQlUse(
                    where, expression, labelValues.group(1), new Query(selector.selectors(), Set.copyOf(labels)));
        }
        Matcher queryResult = QUERY_RESULT.matcher(expression);
        if (queryResult.matches()) {
            return new PromQlUse(where, expression, queryResult.group(1), PromQl.parse(queryResult.group(1)));
        }
        throw new IllegalArgumentException(where + ": a variable query label_values(selector, label) or "
                + "query_result(expression) expected (label_values(label) alone reads every series): " + expression);
    }
}
