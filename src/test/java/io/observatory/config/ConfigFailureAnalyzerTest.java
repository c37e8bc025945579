package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.mesh.config.MeshSettings;
import io.observatory.state.StateSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

class ConfigFailureAnalyzerTest {

    private static final String UNIT = "(expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)";
    private static final String OUTBOUND_KEYS =
            "tag, protocol, address, port, username, password, probe-url, sni, alpn, allow-insecure, endpoint";
    /** The keys of {@code observatory.standard} in declaration order, as the one-line reports list them. */
    static final String STANDARD_KEYS = "subject-selector, probe-url, probe-interval, enable-concurrency, "
            + "expected-status, healthy-threshold, unhealthy-threshold, schedule, timeout, connect-timeout, initial-jitter, "
            + "interval-jitter, unhealthy-interval, unhealthy-edge-interval, healthy-edge-interval";

    /** The core's configuration with the capabilities' sections, as the service registers them. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(ObservatoryConfiguration.class)
            .withBean("meshSection", ConfigSection.class, () -> MeshSettings.SECTION)
            .withBean("stateSection", ConfigSection.class, () -> StateSettings.SECTION);

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "observatory.standard.probe-interval | 1000 | "
                        + "a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms",
                "observatory.burst.ping-config.timeout | 5x | "
                        + "a duration with units ns, us, µs, ms, s, m, h (e.g. 2h45m, 1.5s) or whole days (e.g. 1d)",
                "observatory.outbounds[0].port | abc | a whole number",
                "observatory.outbounds[0].protocol | ftp | one of direct, http, socks, tcp, tls, xray",
                "observatory.standard.enable-concurrency | maybe | true or false",
                "observatory.burst.ping-config.sampling | ten | a whole number",
                "observatory.standard.healthy-threshold | two | a whole number",
                "observatory.burst.max-failure-ratio | half | a decimal number, e.g. 0.3",
                "observatory.passive.consecutive-failures.threshold | 3.5 | a whole number",
                "observatory.passive.transport-failure-rate.detection-window | 60 | "
                        + "a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms",
                "observatory.passive.consecutive-failures.reactivation-period | 1000 | "
                        + "a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms",
                "observatory.passive.transport-failure-rate.failure-rate-limit | 30% | a decimal number, e.g. 0.3",
                "observatory.availability.healthy-or-panic.panic-threshold | 50% | a whole number",
                "observatory.api.auth.require-for-reads | maybe | true or false"
            })
    void analyzeWhenObservatoryValueCannotBindThenOneLineAndAction(String property, String value, String expected) {
        runner.withPropertyValues(property + "=" + value).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());

            assertThat(analysis.getDescription()).isEqualTo(property + ": " + value + " (expected: " + expected + ")");
            assertThat(analysis.getAction())
                    .startsWith("Update " + property + " in the application configuration")
                    .endsWith("Expected: " + expected + ".");
        });
    }

    @Test
    void analyzeWhenPlaceholderUnresolvableThenLineShowsThePlaceholder() {
        runner.withPropertyValues("observatory.standard.probe-interval=${PROBE_INTERVAL}")
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.standard.probe-interval: ${PROBE_INTERVAL} " + UNIT));
    }

    @Test
    void analyzeWhenYamlIntegerDurationThenSameUnitRequiredLineAsText() {
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new MapPropertySource("yaml", Map.of("observatory.standard.probe-interval", 1000))))
                .run(context -> {
                    FailureAnalysis analysis = analyze(context.getStartupFailure());

                    assertThat(analysis.getDescription())
                            .isEqualTo("observatory.standard.probe-interval: 1000 " + UNIT);
                    assertThat(analysis.getAction())
                            .isEqualTo("Update observatory.standard.probe-interval in the "
                                    + "application configuration (set in \"observatory.standard.probe-interval\" from "
                                    + "property source \"yaml\"). Expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, "
                                    + "300ms.");
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "'probe-interval: 1000' | observatory.standard.probe-interval: 1000",
                "'probe-interval: 1.5'  | observatory.standard.probe-interval: 1.5",
                "'probe-interval: -5'   | observatory.standard.probe-interval: -5"
            })
    void analyzeWhenYamlNumberDurationThenUnitRequired(String line, String property) {
        yaml("observatory:\n  standard:\n    " + line + "\n")
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo(property + " " + UNIT));
    }

    @Test
    void analyzeWhenUnknownKeyThenOneLineListsKnownKeysOfItsSection() {
        yaml("""
                observatory:
                  standard:
                    probe-intreval: 5s
                """).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());

            assertThat(analysis.getDescription())
                    .isEqualTo("observatory.standard.probe-intreval: 5s "
                            + "(expected: a known property of observatory.standard: " + STANDARD_KEYS + ")");
            assertThat(analysis.getAction())
                    .isEqualTo("Update observatory.standard.probe-intreval in the "
                            + "application configuration (set in Byte array resource [test.yml] - 3:21). Expected: "
                            + "a known property of observatory.standard: " + STANDARD_KEYS + ".");
        });
    }

    @Test
    void analyzeWhenUnknownOutboundKeyThenOneLineListsOutboundKeys() {
        yaml("""
                observatory:
                  outbounds:
                    - tag: proxy_de
                      protocol: socks
                      proxy: x
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.outbounds[0].proxy: x "
                                + "(expected: a known property of observatory.outbounds[0]: " + OUTBOUND_KEYS + ")"));
    }

    @Test
    void analyzeWhenUnknownTopLevelKeyThenOneLineListsSections() {
        runner.withPropertyValues("observatory.probe-url=https://example.com/")
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.probe-url: https://example.com/ "
                                + "(expected: a known property of observatory: outbounds, standard, burst, probe, reload, "
                                + "passive, availability, api, metrics, mesh, state)"));
    }

    @Test
    void analyzeWhenUnknownApiAuthKeyThenValueMaskedAndKnownKeysListed() {
        yaml("""
                observatory:
                  api:
                    auth:
                      token: s3cr3t-token
                """).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());

            assertThat(analysis.getDescription())
                    .isEqualTo(
                            "observatory.api.auth.token: ****** (expected: "
                                    + "a known property of observatory.api.auth: token-file, token-env, require-for-reads, xray-reads-open)");
            assertThat(analysis.getAction()).doesNotContain("s3cr3t-token");
        });
    }

    @Test
    void analyzeWhenUnknownPassiveKeyThenValuePrintedAndKnownKeysListed() {
        yaml("""
                observatory:
                  passive:
                    consecutive-failures:
                      treshold: 5
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo(
                                "observatory.passive.consecutive-failures.treshold: 5 (expected: a known property of "
                                        + "observatory.passive.consecutive-failures: threshold, reactivation-period)"));
    }

    @Test
    void analyzeWhenEmptySectionGivenAValueThenOneLineSaysEmptySectionExpected() {
        yaml("""
                observatory:
                  availability:
                    healthy-and-unknown: yes
                """)
                .run(
                        context -> assertThat(
                                        analyze(context.getStartupFailure()).getDescription())
                                .isEqualTo(
                                        "observatory.availability.healthy-and-unknown: true (expected: an empty section ({}))"));
    }

    @Test
    void analyzeWhenMisspelledPasswordKeyThenValueMasked() {
        yaml("""
                observatory:
                  outbounds:
                    - { tag: proxy_de, protocol: socks, address: 10.0.0.5, port: 1080, username: u, pasword: hunter2 }
                """).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());

            assertThat(analysis.getDescription())
                    .isEqualTo("observatory.outbounds[0].pasword: ****** "
                            + "(expected: a known property of observatory.outbounds[0]: " + OUTBOUND_KEYS + ")");
            assertThat(analysis.getAction()).doesNotContain("hunter2");
        });
    }

    @Test
    void analyzeWhenOutboundsGivenAsMapThenOneLineSaysListExpected() {
        yaml("""
                observatory:
                  outbounds:
                    direct: { tag: direct, protocol: direct }
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.outbounds: (a nested map) " + "(expected: a list of sections with "
                                + OUTBOUND_KEYS + ")"));
    }

    @Test
    void analyzeWhenOutboundsGivenAsListOfNamesThenOneLineSaysSectionExpected() {
        yaml("""
                observatory:
                  outbounds: [direct]
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo(
                                "observatory.outbounds[0]: direct (expected: a section with " + OUTBOUND_KEYS + ")"));
    }

    @Test
    void analyzeWhenOutboundsGivenAsWordThenOneLineSaysListExpected() {
        yaml("""
                observatory:
                  outbounds: direct
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.outbounds: direct (expected: a list of sections with " + OUTBOUND_KEYS
                                + ")"));
    }

    @Test
    void analyzeWhenSectionGivenAsWordThenOneLineSaysSectionExpected() {
        yaml("""
                observatory:
                  standard: yes
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.standard: true (expected: a section with " + STANDARD_KEYS + ")"));
    }

    @Test
    void analyzeWhenTheWholeConfigurationGivenAsWordThenOneLineSaysSectionExpected() {
        yaml("observatory: 5\n")
                .run(
                        context -> assertThat(
                                        analyze(context.getStartupFailure()).getDescription())
                                .startsWith(
                                        "observatory: 5 (expected: a section with outbounds, standard, burst, probe, reload, "));
    }

    @Test
    void analyzeWhenSelectorGivenAsMapThenOneLineSaysListExpected() {
        yaml("""
                observatory:
                  standard:
                    subject-selector: { x: a }
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo(
                                "observatory.standard.subject-selector: (a nested map) (expected: a list of values)"));
    }

    @Test
    void analyzeWhenDurationGivenAsListThenOneLineSaysListFound() {
        yaml("""
                observatory:
                  standard:
                    probe-interval: [1s, 2s]
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.standard.probe-interval: (a list) " + UNIT));
    }

    @Test
    void analyzeWhenPasswordGivenAsMapThenOneLineSaysMapFoundWithoutItsValue() {
        yaml("""
                observatory:
                  outbounds:
                    - { tag: proxy_de, protocol: socks, address: 10.0.0.5, port: 1080, username: u,
                        password: { x: hunter2 } }
                """).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());

            assertThat(analysis.getDescription())
                    .isEqualTo("observatory.outbounds[0].password: (a nested map) (expected: a single value)");
            assertThat(analysis.getAction()).doesNotContain("hunter2");
        });
    }

    @Test
    void analyzeWhenPortGivenAsMapThenOneLineSaysMapFound() {
        yaml("""
                observatory:
                  outbounds:
                    - { tag: proxy_de, protocol: socks, address: 10.0.0.5, port: { x: 1 } }
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.outbounds[0].port: (a nested map) (expected: a whole number)"));
    }

    @Test
    void analyzeWhenSectionGivenAsListThenOneLineSaysListFound() {
        yaml("""
                observatory:
                  standard: [proxy_]
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo("observatory.standard: (a list) (expected: a section with " + STANDARD_KEYS + ")"));
    }

    @Test
    void analyzeWhenSelectorEntryGivenAsMapThenOneLineSaysSingleValueExpected() {
        yaml("""
                observatory:
                  standard:
                    subject-selector:
                      - { x: a }
                """)
                .run(context -> assertThat(analyze(context.getStartupFailure()).getDescription())
                        .isEqualTo(
                                "observatory.standard.subject-selector[0]: (a nested map) (expected: a single value)"));
    }

    @Test
    void analyzeWhenNestedMapUnderSectionValueThenActionNamesItsOrigin() {
        yaml("""
                observatory:
                  burst:
                    ping-config:
                      sampling: { x: 1 }
                """).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());

            assertThat(analysis.getDescription())
                    .isEqualTo("observatory.burst.ping-config.sampling: (a nested map) (expected: a whole number)");
            assertThat(analysis.getAction())
                    .isEqualTo("Update observatory.burst.ping-config.sampling in the "
                            + "application configuration (set in Byte array resource [test.yml] - 4:22). "
                            + "Expected: a whole number.");
        });
    }

    @Test
    void analyzeWhenUnrelatedFailureThenLeftToOtherAnalyzers() {
        assertThat(analyze(new IllegalStateException("unrelated"))).isNull();
    }

    private static FailureAnalysis analyze(Throwable failure) {
        return new ConfigFailureAnalyzer().analyze(failure);
    }

    /** A runner whose first property source is {@code document} as Spring Boot loads an application.yml. */
    private ApplicationContextRunner yaml(String document) {
        return YamlDocuments.withYaml(runner, document);
    }
}
