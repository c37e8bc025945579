package io.observatory.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.dashboard.GrafanaDashboard.PromQlUse;
import io.observatory.testing.ExternalCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The dashboard's PromQL is valid PromQL to Prometheus itself: each panel expression and each variable's selector,
 * its Grafana variables replaced by values of their kind, becomes a recording rule that Prometheus's
 * {@code promtool check rules} parses (Debian's {@code prometheus} package, which {@code .ci/run} installs).
 */
class DashboardPromQlInteropIT {

    private static final Duration PROMTOOL_LIMIT = Duration.ofSeconds(30);

    /**
     * {@code expression} as Grafana sends it, near enough for the parser: the range variables as ranges, every other
     * variable (only in label values here) as a word.
     */
    static String substituted(String expression) {
        return expression
                .replace("[$__rate_interval]", "[1m]")
                .replace("[$__range]", "[1h]")
                .replaceAll("\\$\\{[^}]*}|\\$\\w+", "x");
    }

    @Test
    void promtoolWhenEveryExpressionIsARecordingRuleThenAllParse(@TempDir Path directory) throws IOException {
        List<PromQlUse> uses = GrafanaDashboard.read().queries();
        List<Map<String, String>> rules = new ArrayList<>();
        for (PromQlUse use : uses) {
            Map<String, String> rule = new LinkedHashMap<>();
            rule.put("record", "dashboard:query_" + rules.size());
            rule.put("expr", substituted(use.promql()));
            rules.add(rule);
        }
        Path file = directory.resolve("dashboard-rules.yml");
        Files.writeString(
                file, new Yaml().dump(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));

        String checked = ExternalCommand.run(PROMTOOL_LIMIT, List.of("promtool", "check", "rules", file.toString()));

        assertThat(uses).hasSizeGreaterThanOrEqualTo(30);
        assertThat(checked).contains("SUCCESS: " + uses.size() + " rules found");
    }

    @Test
    void substitutedThenRangesAndVariablesPromtoolAccepts() {
        assertThat(substituted("rate(x{job=\"$job\", outbound=~\"${prefix:regex}.*\"}[$__rate_interval])"))
                .isEqualTo("rate(x{job=\"x\", outbound=~\"x.*\"}[1m])");
        assertThat(substituted("increase(x[$__range])")).isEqualTo("increase(x[1h])");
    }

    @Test
    void promtoolWhenAnExpressionDoesNotParseThenFailsNamingIt(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(
                directory.resolve("broken-rules.yml"),
                new Yaml()
                        .dump(Map.of(
                                "groups",
                                List.of(Map.of(
                                        "name",
                                        "dashboard",
                                        "rules",
                                        List.of(Map.of(
                                                "record", "dashboard:broken", "expr", "sum by (le) (rate(x[1m])")))))));

        assertThatThrownBy(() ->
                        ExternalCommand.run(PROMTOOL_LIMIT, List.of("promtool", "check", "rules", file.toString())))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("dashboard:broken");
    }
}
