package io.observatory.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.dashboard.GrafanaDashboard.PromQlUse;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScrapedSeriesTest {

    private static final ScrapedSeries SCRAPE = ScrapedSeries.parse("""
            # HELP observatory_probe_rtt_seconds Round-trip time {not="a sample"}
            # TYPE observatory_probe_rtt_seconds histogram
            observatory_probe_rtt_seconds_bucket{le="0.001"} 0
            observatory_probe_rtt_seconds_count 3
            observatory_probe_results_total{error_kind="none",outbound="a,b \\"c\\"} d",outcome="success"} 1.0

            process_cpu_usage 0.1 1700000000000
            # EOF
            """);

    private static List<String> problems(String expression) {
        return SCRAPE.problems(new PromQlUse("panel \"P\" target A", expression, expression, PromQl.parse(expression)));
    }

    @Test
    void parseThenEverySampleNameAndNoComment() {
        assertThat(SCRAPE.samples())
                .containsExactlyInAnyOrder(
                        "observatory_probe_rtt_seconds_bucket",
                        "observatory_probe_rtt_seconds_count",
                        "observatory_probe_results_total",
                        "process_cpu_usage");
    }

    @Test
    void problemsWhenEverythingIsInTheScrapeThenNone() {
        assertThat(problems("sum by (le, instance) (rate(observatory_probe_rtt_seconds_bucket{job=\"x\"}[5m])) "
                        + "/ on(instance) group_left process_cpu_usage"))
                .isEmpty();
        assertThat(problems("sum by (error_kind) (observatory_probe_results_total{outcome=\"success\", "
                        + "outbound=~\"a.*\"})"))
                .isEmpty();
    }

    @Test
    void problemsWhenAMetricIsNotInTheScrapeThenNamedWithThePlace() {
        assertThat(problems("rate(observatory_probe_result_total[5m]) + process_cpu_usage"))
                .containsExactly("panel \"P\" target A: no series observatory_probe_result_total in the scrape");
    }

    @Test
    void problemsWhenAHistogramIsQueriedByItsBaseNameThenMissing() {
        assertThat(problems("observatory_probe_rtt_seconds"))
                .containsExactly("panel \"P\" target A: no series observatory_probe_rtt_seconds in the scrape");
    }

    @Test
    void problemsWhenAMatcherLabelIsNotOnTheSeriesThenNamed() {
        assertThat(problems("observatory_probe_results_total{job=\"x\", kind=\"dns_failure\"}"))
                .containsExactly(
                        "panel \"P\" target A: observatory_probe_results_total has no label kind (it has [error_kind, "
                                + "outbound, outcome])");
    }

    @Test
    void problemsWhenAGroupingLabelIsOnNoSelectedSeriesThenNamed() {
        assertThat(problems("sum by (phase, instance) (observatory_probe_rtt_seconds_count)"))
                .containsExactly("panel \"P\" target A: no series it selects has the label phase");
    }

    @Test
    void parseWhenLabelsDoNotCloseThenRejected() {
        assertThatThrownBy(() -> ScrapedSeries.parse("x{a=\"b\" 1\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unclosed labels in sample: x{a=\"b\" 1");
    }
}
