package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ObservatoryBindFailureAnalyzerTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(ObservatoryConfiguration.class);

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "observatory.standard.probe-interval | 1000 | "
                    + "a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms",
            "observatory.burst.ping-config.timeout | 5x | "
                    + "a duration with units ns, us, µs, ms, s, m, h (e.g. 2h45m, 1.5s) or whole days (e.g. 1d)",
            "observatory.outbounds[0].port | abc | a whole number",
            "observatory.outbounds[0].protocol | ftp | one of direct, http, socks",
            "observatory.standard.enable-concurrency | maybe | true or false",
            "observatory.burst.ping-config.sampling | ten | a whole number"})
    void analyzeWhenObservatoryValueCannotBindThenOneLineAndAction(String property, String value, String expected) {
        runner.withPropertyValues(property + "=" + value).run(context -> {
            FailureAnalysis analysis = new ObservatoryBindFailureAnalyzer().analyze(context.getStartupFailure());

            assertThat(analysis.getDescription()).isEqualTo(property + ": " + value + " (expected: " + expected + ")");
            assertThat(analysis.getAction()).startsWith("Update " + property + " in the application configuration")
                    .endsWith("Expected: " + expected + ".");
        });
    }

    @Test
    void analyzeWhenPlaceholderUnresolvableThenLineShowsThePlaceholder() {
        runner.withPropertyValues("observatory.standard.probe-interval=${PROBE_INTERVAL}").run(context ->
                assertThat(new ObservatoryBindFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.standard.probe-interval: ${PROBE_INTERVAL} "
                                + "(expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)"));
    }
}
