package io.observatory.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.dashboard.GrafanaDashboard.PromQlUse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The dashboard file as Grafana imports it: a current schema, a stable uid, its data source only through the
 * {@code datasource} variable, the variables an operator filters by, a unit on every panel, verdict colours, and
 * PromQL that reads each area an operator watches (verdicts, probes, the API, the mesh). That the metrics exist is
 * {@link DashboardScrapeIntegrationTest}'s.
 */
class GrafanaDashboardTest {

    private final GrafanaDashboard dashboard = GrafanaDashboard.read();

    private List<JsonNode> visualisations() {
        return dashboard.panels().stream()
                .filter(panel -> !panel.path("type").asString().equals("row"))
                .toList();
    }

    private JsonNode panel(String title) {
        return dashboard.panels().stream()
                .filter(panel -> panel.path("title").asString().equals(title))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no panel " + title));
    }

    /** Every {@code datasource} object anywhere in the dashboard. */
    private static void datasources(JsonNode node, List<JsonNode> found) {
        if (node.isObject() && node.has("datasource") && node.get("datasource").isObject()) {
            found.add(node.get("datasource"));
        }
        node.forEach(child -> datasources(child, found));
    }

    @Test
    void dashboardThenCurrentSchemaStableUidTitleAndNoInstanceId() {
        JsonNode root = dashboard.root();

        assertThat(root.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
        assertThat(root.path("uid").asString()).isEqualTo("observatory");
        assertThat(root.path("title").asString()).isEqualTo("Observatory");
        assertThat(root.path("id").isNull())
                .as("id is the Grafana instance's, null in a file")
                .isTrue();
        assertThat(root.has("__inputs"))
                .as("no import-time data source input: the variable picks it")
                .isFalse();
    }

    @Test
    void datasourceWhenAnyPanelTargetOrVariableThenTheVariableNeverAUid() {
        List<JsonNode> datasources = new ArrayList<>();
        datasources(dashboard.root(), datasources);

        assertThat(datasources).hasSizeGreaterThan(visualisations().size());
        assertThat(datasources)
                .filteredOn(datasource -> !datasource.path("type").asString().equals("grafana"))
                .allSatisfy(datasource -> {
                    assertThat(datasource.path("type").asString()).isEqualTo("prometheus");
                    assertThat(datasource.path("uid").asString()).isEqualTo("${datasource}");
                });
        assertThat(visualisations())
                .allSatisfy(panel -> assertThat(panel.has("datasource")).isTrue());
    }

    @Test
    void templatingThenDatasourceJobInstanceTagPrefixAndOutbound() {
        Map<String, String> variables = new HashMap<>();
        dashboard
                .root()
                .path("templating")
                .path("list")
                .forEach(variable -> variables.put(
                        variable.path("name").asString(), variable.path("type").asString()));
        JsonNode datasource = dashboard.root().path("templating").path("list").get(0);

        assertThat(variables)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "datasource",
                        "datasource",
                        "job",
                        "query",
                        "instance",
                        "query",
                        "prefix",
                        "textbox",
                        "outbound",
                        "query"));
        assertThat(datasource.path("query").asString()).isEqualTo("prometheus");
        assertThat(dashboard.queries())
                .filteredOn(use -> use.where().equals("variable outbound"))
                .singleElement()
                .satisfies(use -> assertThat(use.expression()).contains("outbound=~\"${prefix:regex}.*\""));
    }

    @Test
    void panelsThenEachHasATitleDescriptionAndUnit() {
        assertThat(visualisations()).hasSizeGreaterThanOrEqualTo(25).allSatisfy(panel -> {
            String unit = panel.path("type").asString().equals("heatmap")
                    ? panel.path("options").path("yAxis").path("unit").asString()
                    : panel.path("fieldConfig").path("defaults").path("unit").asString();
            assertThat(panel.path("title").asString()).isNotBlank();
            assertThat(panel.path("description").asString())
                    .as(panel.path("title").asString())
                    .isNotBlank();
            assertThat(unit).as(panel.path("title").asString()).isNotBlank();
        });
        Set<String> units = visualisations().stream()
                .map(panel ->
                        panel.path("fieldConfig").path("defaults").path("unit").asString())
                .collect(Collectors.toSet());
        assertThat(units).contains("s", "bytes", "percentunit", "ops", "none");
    }

    @Test
    void panelsThenUniqueIdsAndNoOverlapOnTheGrid() {
        List<JsonNode> panels = dashboard.panels();

        assertThat(panels.stream().map(panel -> panel.path("id").asInt())).doesNotHaveDuplicates();
        for (int i = 0; i < panels.size(); i++) {
            JsonNode a = panels.get(i).path("gridPos");
            assertThat(a.path("x").asInt() + a.path("w").asInt()).isLessThanOrEqualTo(24);
            for (int j = i + 1; j < panels.size(); j++) {
                JsonNode b = panels.get(j).path("gridPos");
                boolean overlap =
                        a.path("x").asInt() < b.path("x").asInt() + b.path("w").asInt()
                                && b.path("x").asInt()
                                        < a.path("x").asInt() + a.path("w").asInt()
                                && a.path("y").asInt()
                                        < b.path("y").asInt() + b.path("h").asInt()
                                && b.path("y").asInt()
                                        < a.path("y").asInt() + a.path("h").asInt();
                assertThat(overlap)
                        .as(
                                "%s overlaps %s",
                                panels.get(i).path("title"), panels.get(j).path("title"))
                        .isFalse();
            }
        }
    }

    @Test
    void verdictsThenNamedAndColouredGreenYellowBlueRed() {
        JsonNode mapping = panel("Outbounds not healthy")
                .path("fieldConfig")
                .path("defaults")
                .path("mappings")
                .get(0)
                .path("options");

        Map<String, String> shown = new HashMap<>();
        mapping.properties()
                .forEach(entry -> shown.put(
                        entry.getKey(),
                        entry.getValue().path("text").asString() + " "
                                + entry.getValue().path("color").asString()));
        assertThat(shown)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "1", "healthy green", "0.5", "degraded yellow", "0", "unknown blue", "-1", "unhealthy red"));
    }

    @Test
    void queriesThenEachAreaOfTheIssue() {
        Set<String> metrics = new TreeSet<>();
        dashboard.queries().forEach(use -> metrics.addAll(use.query().metrics()));

        assertThat(metrics)
                .contains(
                        "observatory_outbound_verdict",
                        "observatory_availability_panic",
                        "observatory_mesh_route_panic",
                        "observatory_probe_last_rtt_seconds",
                        "observatory_probe_last_phase_seconds",
                        "observatory_probe_rtt_seconds_bucket",
                        "observatory_probe_phase_seconds_bucket",
                        "observatory_probe_results_total",
                        "observatory_mesh_server_status",
                        "observatory_mesh_witness_reliable",
                        "observatory_mesh_witness_share",
                        "process_cpu_time_ns_total",
                        "observatory_observation_age_seconds",
                        "observatory_scrape_size_bytes");
    }

    @Test
    void queriesThenEveryRangeIsGrafanasRateIntervalOrTheDashboardRange() {
        assertThat(dashboard.queries())
                .map(PromQlUse::expression)
                .allSatisfy(expression -> assertThat(
                                expression.replace("[$__rate_interval]", "").replace("[$__range]", ""))
                        .doesNotContain("["));
    }

    @Test
    void variableQueryWhenLabelValuesOfASelectorThenItsSelectorsAndTheLabel() {
        PromQlUse use = GrafanaDashboard.variableQuery("variable v", "label_values(up{job=\"$job\"}, instance)");

        assertThat(use.promql()).isEqualTo("up{job=\"$job\"}");
        assertThat(use.query().selectors()).containsExactly(new PromQl.Selector("up", Set.of("job")));
        assertThat(use.query().groupingLabels()).containsExactly("instance");
        assertThat(GrafanaDashboard.variableQuery("variable v", "query_result(topk(3, up))")
                        .query()
                        .metrics())
                .containsExactly("up");
        assertThatThrownBy(() -> GrafanaDashboard.variableQuery("variable v", "label_values(instance)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("variable v: ");
    }

    @Test
    void rowsThenOneForEachAreaInOrder() {
        assertThat(StreamSupport.stream(dashboard.root().path("panels").spliterator(), false)
                        .filter(panel -> panel.path("type").asString().equals("row"))
                        .map(panel -> panel.path("title").asString()))
                .containsExactly("Fleet overview", "RTT and phases", "Probe errors", "Mesh", "Service health");
    }
}
