package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.TransportFailureRatePolicy;
import io.observatory.testing.Configs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

@ExtendWith(OutputCaptureExtension.class)
class ObservatoryConfigurationTest {

    private static final String UNIT = "(expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)";

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withUserConfiguration(ObservatoryConfiguration.class);

    @Test
    void contextWhenKebabCasePropertiesThenValidatedConfigBean() {
        runner.withPropertyValues(
                        "observatory.outbounds[0].tag=proxy_de",
                        "observatory.outbounds[0].protocol=SOCKS",
                        "observatory.outbounds[0].address=10.0.0.5",
                        "observatory.outbounds[0].port=1080",
                        "observatory.outbounds[0].username=u",
                        "observatory.outbounds[0].password=p",
                        "observatory.outbounds[1].tag=proxy_us",
                        "observatory.outbounds[1].protocol=http",
                        "observatory.outbounds[1].address=10.0.0.6",
                        "observatory.outbounds[1].port=3128",
                        "observatory.outbounds[1].probe-url=http://10.0.0.6:8080/ready",
                        "observatory.standard.subject-selector=proxy_,direct",
                        "observatory.standard.probe-url=https://example.com/generate_204",
                        "observatory.standard.probe-interval=1.5s",
                        "observatory.standard.enable-concurrency=true",
                        "observatory.probe.max-concurrent=8",
                        "observatory.probe.headers.User-Agent=observatory-test")
                .run(context -> {
                    ObservatoryConfig config = context.getBean(ObservatoryConfig.class);
                    assertThat(config.outbounds())
                            .containsExactly(
                                    new Outbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080, "u", "p", null),
                                    new Outbound(
                                            "proxy_us",
                                            Protocol.HTTP,
                                            "10.0.0.6",
                                            3128,
                                            null,
                                            null,
                                            "http://10.0.0.6:8080/ready"));
                    assertThat(config.standard())
                            .isEqualTo(Configs.xrayStandard(
                                    List.of("proxy_", "direct"),
                                    "https://example.com/generate_204",
                                    Duration.ofMillis(1_500),
                                    true,
                                    ExpectedStatus.ANY,
                                    1,
                                    1));
                    assertThat(config.burst()).isNull();
                    assertThat(config.probe().maxConcurrent()).isEqualTo(8);
                    assertThat(config.probe().headers()).containsEntry("User-Agent", "observatory-test");
                });
    }

    @Test
    void contextWhenBurstDurationsInGoSyntaxThenBoundToTheNanosecond() {
        runner.withPropertyValues(
                        "observatory.burst.subject-selector[0]=proxy_",
                        "observatory.burst.ping-config.interval=2h45m",
                        "observatory.burst.ping-config.timeout=1.000000007s",
                        "observatory.burst.ping-config.sampling=3",
                        "observatory.burst.ping-config.http-method=GET")
                .run(context -> {
                    PingConfig ping =
                            context.getBean(ObservatoryConfig.class).burst().pingConfig();
                    assertThat(ping.interval()).isEqualTo(Duration.ofMinutes(165));
                    assertThat(ping.timeout()).isEqualTo(Duration.ofSeconds(1, 7));
                    assertThat(ping.sampling()).isEqualTo(3);
                    assertThat(ping.httpMethod()).isEqualTo("GET");
                });
    }

    @Test
    void contextWhenBurstHealthAndApiKeysInYamlThenBoundIntoTheValidatedConfig(@TempDir Path directory)
            throws IOException {
        Path token = Files.writeString(directory.resolve("api-token"), "t0ken-from-file\n");
        yaml("""
                observatory:
                  burst:
                    subject-selector: [proxy_]
                    ping-config: {}
                    expected-status: 200-299/304
                    healthy-threshold: 2
                    unhealthy-threshold: 3
                    max-failure-ratio: 0.5
                  passive:
                    consecutive-failures:
                      threshold: 5
                      reactivation-period: 2m
                  availability:
                    healthy-or-panic:
                      panic-threshold: 50
                  api:
                    auth:
                      token-file: %s
                      require-for-reads: true
                """.formatted(token)).run(context -> {
            ObservatoryConfig config = context.getBean(ObservatoryConfig.class);
            BurstObserverSettings burst = config.burst();
            assertThat(burst.windowRule().check())
                    .isEqualTo(new ActiveCheck(ExpectedStatus.parse("200-299/304"), new ActiveHealthPolicy(2, 3)));
            assertThat(burst.windowRule().maxFailureRatio()).isEqualTo(OptionalDouble.of(0.5));
            assertThat(config.passive().policy()).isEqualTo(new ConsecutiveFailuresPolicy(5, Duration.ofMinutes(2)));
            assertThat(config.availability().policy()).isEqualTo(new AvailabilityPolicy.HealthyOrPanic(50));
            assertThat(config.api().auth()).isEqualTo(new ApiAuthSettings(token.toString(), null, true, false));
        });
    }

    @Test
    void contextWhenStandardHealthKeysInYamlNumbersThenBound() {
        yaml("""
                observatory:
                  standard:
                    subject-selector: [proxy_]
                    expected-status: 204
                    unhealthy-threshold: 2
                  passive:
                    transport-failure-rate:
                      detection-window: 30s
                      minimal-total-count: 20
                      failure-rate-limit: 0.5
                      reactivation-period: 1m
                  availability:
                    healthy-and-unknown: {}
                """).run(context -> {
            ObservatoryConfig config = context.getBean(ObservatoryConfig.class);
            assertThat(config.standard().activeCheck())
                    .isEqualTo(new ActiveCheck(ExpectedStatus.parse("204"), new ActiveHealthPolicy(1, 2)));
            assertThat(config.passive().policy())
                    .isEqualTo(new TransportFailureRatePolicy(Duration.ofSeconds(30), 20, 0.5, Duration.ofMinutes(1)));
            assertThat(config.availability().policy()).isEqualTo(AvailabilityPolicy.HEALTHY_AND_UNKNOWN);
            assertThat(config.api().auth()).isEqualTo(new ApiAuthSettings(null, null, false, false));
        });
    }

    @Test
    void contextWhenChartTokenVariableInEnvironmentThenStrictBindingIgnoresIt() {
        // The Helm chart passes the token as OBSERVATORY_API_TOKEN, which relaxed binding maps to the unknown key
        // observatory.api.token: environment variables are exempt from the strict key check.
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                Map.of("OBSERVATORY_API_TOKEN", "t0ken"))))
                .run(context -> assertThat(
                                context.getBean(ObservatoryConfig.class).api().auth())
                        .isEqualTo(new ApiAuthSettings(null, null, false, false)));
    }

    @Test
    void startupWhenBothPassivePoliciesThenReportIsOneLineNamingBoth(CapturedOutput output) {
        assertStartupFails(
                "--observatory.passive.consecutive-failures.threshold=5",
                "--observatory.passive.transport-failure-rate.minimal-total-count=20");

        String expected = "at most one passive policy: remove observatory.passive.transport-failure-rate or "
                + "observatory.passive.consecutive-failures";
        assertThat(output)
                .contains(report(
                        "observatory.passive.consecutive-failures: set together with observatory.passive.transport-failure-rate"
                                + " (expected: " + expected + ")",
                        "Update observatory.passive.consecutive-failures in the application configuration. Expected: "
                                + expected + "."));
    }

    @Test
    void startupWhenTokenEnvUnsetThenReportIsOneLineNamingTheVariable(CapturedOutput output) {
        String variable =
                "OBSERVATORY_TEST_UNSET_" + UUID.randomUUID().toString().replace('-', '_');
        assertThat(System.getenv(variable)).isNull();

        assertStartupFails("--observatory.api.auth.token-env=" + variable);

        assertThat(output)
                .contains(report(
                        "observatory.api.auth.token-env: " + variable
                                + " (expected: the name of an environment variable holding the API token; it is not set)",
                        "Update observatory.api.auth.token-env in the application configuration (set in "
                                + "\"observatory.api.auth.token-env\" from property source \"commandLineArgs\"). Expected: the "
                                + "name of an environment variable holding the API token; it is not set."));
    }

    @Test
    void startupWhenTokenPastedIntoTokenEnvThenNoLogLineShowsIt(CapturedOutput output) {
        String token = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.s1gnature";

        assertStartupFails("--observatory.api.auth.token-env=" + token);

        assertThat(output)
                .contains("observatory.api.auth.token-env: ****** (expected: the name of an environment "
                        + "variable: letters, digits and '_', not starting with a digit)");
        assertThat(output.getAll()).doesNotContain(token);
    }

    @Test
    void contextWhenNoObserverSetThenWarningLoggedOnceAtWarn(CapturedOutput output) {
        runner.run(context -> {
            ObservatoryConfig config = context.getBean(ObservatoryConfig.class);
            assertThat(config.standard()).isNull();
            assertThat(config.burst()).isNull();
        });

        String warning = "no observer configured: set observatory.standard or observatory.burst; "
                + "serving an empty observation";
        assertThat(output.getAll().lines().filter(line -> line.contains(warning)))
                .singleElement()
                .asString()
                .contains("WARN");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "observatory.standard.probe-interval",
        "observatory.burst.ping-config.interval",
        "observatory.burst.ping-config.timeout"
    })
    void contextWhenDurationPropertyIsBareNumberThenStartupFailsWithGoDurationMessage(String property) {
        runner.withPropertyValues(property + "=1000").run(context -> {
            assertThat(context).hasFailed();
            assertThat(new ConfigFailureAnalyzer()
                            .analyze(context.getStartupFailure())
                            .getDescription())
                    .isEqualTo(property + ": 1000 " + UNIT);
        });
    }

    @Test
    void contextWhenShortProbeIntervalThenWarningLoggedOnceAtWarn(CapturedOutput output) {
        runner.withPropertyValues("observatory.standard.probe-interval=1ns")
                .run(context -> assertThat(context.getBean(ObservatoryConfig.class)
                                .standard()
                                .probeInterval())
                        .isEqualTo(Duration.ofNanos(1)));

        String warning = "observatory.standard.probe-interval: 1ns is very short: "
                + "outbounds may be probed more than once a second";
        assertThat(output.getAll().lines().filter(line -> line.contains(warning)))
                .singleElement()
                .asString()
                .contains("WARN");
    }

    @Test
    void contextWhenYamlIntegerZeroDurationsThenDefaultsAsForGoZero() {
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new MapPropertySource(
                                "yaml",
                                Map.of(
                                        "observatory.burst.ping-config.interval", 0,
                                        "observatory.burst.ping-config.timeout", 0))))
                .run(context -> {
                    PingConfig ping =
                            context.getBean(ObservatoryConfig.class).burst().pingConfig();
                    assertThat(ping.interval()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(ping.timeout()).isEqualTo(Duration.ofSeconds(5));
                });
    }

    @Test
    void contextWhenOtherDurationPropertyIsYamlIntegerThenSpringMillisecondsKept() {
        runner.withUserConfiguration(OtherConfiguration.class)
                .withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addFirst(new MapPropertySource("yaml", Map.of("other.bare", 30))))
                .run(context -> assertThat(
                                context.getBean(OtherProperties.class).getBare())
                        .isEqualTo(Duration.ofMillis(30)));
    }

    @Test
    void contextWhenOtherDurationPropertyThenGoSyntaxAddedAndBareNumberKeepsSpringMeaning() {
        runner.withUserConfiguration(OtherConfiguration.class)
                .withPropertyValues("other.go=1.5s", "other.bare=30")
                .run(context -> {
                    OtherProperties other = context.getBean(OtherProperties.class);
                    assertThat(other.getGo()).isEqualTo(Duration.ofMillis(1_500));
                    assertThat(other.getBare()).isEqualTo(Duration.ofMillis(30));
                });
    }

    @Test
    void startupWhenPortOutOfRangeThenReportIsOneLineNamingPropertyValueAndRange(CapturedOutput output) {
        assertStartupFails(
                "--observatory.outbounds[0].tag=proxy_de",
                "--observatory.outbounds[0].protocol=socks",
                "--observatory.outbounds[0].address=127.0.0.1",
                "--observatory.outbounds[0].port=70000");

        assertThat(output)
                .contains(
                        report(
                                "observatory.outbounds[0].port: 70000 (expected: 1-65535)",
                                "Update observatory.outbounds[0].port in the application configuration (set in "
                                        + "\"observatory.outbounds[0].port\" from property source \"commandLineArgs\"). Expected: 1-65535."));
    }

    @Test
    void startupWhenDurationHasNoUnitThenReportIsOneLineWinningOverSpringBindReport(CapturedOutput output) {
        assertStartupFails("--observatory.standard.probe-interval=1000");

        assertThat(output)
                .contains(report(
                        "observatory.standard.probe-interval: 1000 " + UNIT,
                        "Update observatory.standard.probe-interval in the application configuration (set in "
                                + "\"observatory.standard.probe-interval\" from property source \"commandLineArgs\"). "
                                + "Expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms."));
        assertThat(output).doesNotContain("to java.time.Duration:" + System.lineSeparator());
    }

    @Test
    void startupWhenUnknownKeyThenReportIsOneLineWinningOverSpringUnboundReport(CapturedOutput output) {
        assertStartupFails("--observatory.standard.probe-intreval=5s");

        String expected = "a known property of observatory.standard: " + ConfigFailureAnalyzerTest.STANDARD_KEYS;
        assertThat(output)
                .contains(report(
                        "observatory.standard.probe-intreval: 5s (expected: " + expected + ")",
                        "Update observatory.standard.probe-intreval in the application configuration (set in "
                                + "\"observatory.standard.probe-intreval\" from property source \"commandLineArgs\"). "
                                + "Expected: " + expected + "."));
        assertThat(output).doesNotContain("were left unbound");
    }

    @Test
    void startupWhenSamplingAboveLimitThenReportIsOneLineNamingLimit(CapturedOutput output) {
        assertStartupFails("--observatory.burst.ping-config.sampling=20000000");

        assertThat(output)
                .contains(report(
                        "observatory.burst.ping-config.sampling: 20000000 (expected: 1-1000 samples, or 0 for the default 10)",
                        "Update observatory.burst.ping-config.sampling in the application configuration (set in "
                                + "\"observatory.burst.ping-config.sampling\" from property source \"commandLineArgs\"). "
                                + "Expected: 1-1000 samples, or 0 for the default 10."));
    }

    @Test
    void startupWhenOtherPropertyFailsToBindThenSpringBootReportsIt(CapturedOutput output) {
        assertStartupFails(OtherConfiguration.class, "--other.count=many");

        assertThat(output).contains("Failed to bind properties under 'other.count' to int");
    }

    private static void assertStartupFails(String... args) {
        assertStartupFails(ObservatoryConfiguration.class, args);
    }

    private static void assertStartupFails(Class<?> source, String... args) {
        SpringApplicationBuilder application = new SpringApplicationBuilder(ObservatoryConfiguration.class, source)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false);
        // Without config files: the report must come from the arguments, not from an application.yml on the class path.
        String[] withoutConfigFiles = new String[args.length + 1];
        withoutConfigFiles[0] = "--spring.config.location=optional:file:./no-config-files/";
        System.arraycopy(args, 0, withoutConfigFiles, 1, args.length);

        assertThatThrownBy(() -> application.run(withoutConfigFiles)).isInstanceOf(RuntimeException.class);
    }

    /** A runner whose first property source is {@code document} as Spring Boot loads an application.yml. */
    private ApplicationContextRunner yaml(String document) {
        return YamlDocuments.withYaml(runner, document);
    }

    /** The part of Spring Boot's "APPLICATION FAILED TO START" report a user reads. */
    private static String report(String description, String action) {
        return String.format("Description:%n%n%s%n%nAction:%n%n%s%n", description, action);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(OtherProperties.class)
    static class OtherConfiguration {}

    /** Properties of another component, to check that the Go-duration binding leaves their meaning alone. */
    @ConfigurationProperties("other")
    static class OtherProperties {

        private Duration go;
        private Duration bare;
        private int count;

        public Duration getGo() {
            return go;
        }

        public void setGo(Duration go) {
            this.go = go;
        }

        public Duration getBare() {
            return bare;
        }

        public void setBare(Duration bare) {
            this.bare = bare;
        }

        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            this.count = count;
        }
    }
}
