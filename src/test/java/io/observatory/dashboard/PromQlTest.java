package io.observatory.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.dashboard.PromQl.Query;
import io.observatory.dashboard.PromQl.Selector;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PromQlTest {

    static Stream<Arguments> expressions() {
        return Stream.of(
                Arguments.of(
                        "sum by (le) (rate(observatory_probe_rtt_seconds_bucket{job=\"$job\", "
                                + "instance=~\"$instance\"}[$__rate_interval]))",
                        List.of(new Selector("observatory_probe_rtt_seconds_bucket", Set.of("job", "instance"))),
                        Set.of("le")),
                Arguments.of(
                        "histogram_quantile(0.9, sum(rate(http_server_requests_seconds_bucket{uri=\"/x\"}[5m]))"
                                + " by (le, uri))",
                        List.of(new Selector("http_server_requests_seconds_bucket", Set.of("uri"))),
                        Set.of("le", "uri")),
                Arguments.of(
                        "a / on(instance) group_left(version) b{x!=\"y\"} offset 5m",
                        List.of(new Selector("a", Set.of()), new Selector("b", Set.of("x"))),
                        Set.of("instance", "version")),
                Arguments.of("topk(20, foo) or on() vector(0)", List.of(new Selector("foo", Set.of())), Set.of()),
                Arguments.of(
                        "count_values(\"verdict\", observatory_outbound_verdict) > bool 0.5e-3 and Inf + NaN",
                        List.of(new Selector("observatory_outbound_verdict", Set.of())),
                        Set.of()),
                Arguments.of("{__name__=\"up\", job=\"x\"} == 1", List.of(new Selector("up", Set.of("job"))), Set.of()),
                Arguments.of(
                        "rate(x_total[1h:5m] @ start()) - 0x1F * -1e+3",
                        List.of(new Selector("x_total", Set.of())),
                        Set.of()),
                Arguments.of(
                        "max_over_time(x[$__interval]) * 1e9 # times fake_metric{not=\"a selector\"}",
                        List.of(new Selector("x", Set.of())),
                        Set.of()),
                Arguments.of(
                        "SUM BY (Le) (job:x:rate5m)", List.of(new Selector("job:x:rate5m", Set.of())), Set.of("Le")),
                Arguments.of(
                        "sum without (outbound) (y{a=~\"[0-9]+\", b='{c}'}) unless z offset 1h30m",
                        List.of(new Selector("y", Set.of("a", "b")), new Selector("z", Set.of())),
                        Set.of("outbound")),
                Arguments.of(
                        "label_replace(z, \"dst\", \"$1\", \"src\", \"(.*)\") / ${divisor:raw}",
                        List.of(new Selector("z", Set.of())),
                        Set.of()),
                Arguments.of("rate(x[[interval]])", List.of(new Selector("x", Set.of())), Set.of()));
    }

    @ParameterizedTest
    @MethodSource("expressions")
    void parseThenSelectorsWithTheirLabelsAndTheGroupingLabels(
            String expression, List<Selector> selectors, Set<String> grouping) {
        Query query = PromQl.parse(expression);

        assertThat(query.selectors()).isEqualTo(selectors);
        assertThat(query.groupingLabels()).isEqualTo(grouping);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{job=\"x\"}",
                "sum(rate(x{a=\"b\"",
                "x{a=\"b}",
                "rate(x[5m)",
                "sum by (le, (x)",
                "x{a=b}",
                "x / ${y"
            })
    void parseWhenNotLexicallyPromQlOrWithoutMetricNameThenRejected(String expression) {
        assertThatThrownBy(() -> PromQl.parse(expression))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("in: " + expression);
    }
}
