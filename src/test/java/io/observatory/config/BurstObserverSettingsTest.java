package io.observatory.config;

import static io.observatory.config.StandardObserverSettingsTest.EXPECTED_STATUS;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.testing.Configs;
import java.net.URI;
import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BurstObserverSettingsTest {

    private static final String METHOD =
            "(expected: an HTTP method such as HEAD or GET (CONNECT opens a tunnel, it probes nothing))";

    private static final String INTERVAL = "(expected: a positive duration up to 24h0m0s, or 0 for the default 1m0s)";
    private static final String TIMEOUT = "(expected: a positive duration up to 10m0s, or 0 for the default 5s)";
    private static final String SAMPLING = "(expected: 1-1000 samples, or 0 for the default 10)";

    private static BurstObserverSettings burst(String... properties) {
        return Configs.of(properties).burst();
    }

    private static PingConfig ping(String... properties) {
        return burst(properties).pingConfig();
    }

    @Test
    void bindWhenPingConfigEmptyThenXrayDefaults() {
        ObservatoryConfigBinder.Bound bound = Configs.bound(
                "outbounds[0].tag=proxy_de",
                "outbounds[0].protocol=direct",
                "burst.subject-selector=proxy_",
                "burst.ping-config=");
        BurstObserverSettings burst = bound.config().burst();

        assertThat(burst.subjectSelector()).containsExactly("proxy_");
        assertThat(burst.pingConfig())
                .isEqualTo(new PingConfig(
                        "https://connectivitycheck.gstatic.com/generate_204",
                        null,
                        Duration.ofMinutes(1),
                        10,
                        Duration.ofSeconds(5),
                        "HEAD"));
        assertThat(burst.windowRule().check())
                .isEqualTo(new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)));
        assertThat(burst.windowRule().maxFailureRatio()).isEmpty();
        assertThat(bound.warnings()).isEmpty();
    }

    @Test
    void bindWhenDurationsInGoSyntaxThenBoundToTheNanosecond() {
        PingConfig ping = ping(
                "burst.ping-config.interval=2h45m",
                "burst.ping-config.timeout=1.000000007s",
                "burst.ping-config.sampling=3",
                "burst.ping-config.http-method=GET");

        assertThat(ping.interval()).isEqualTo(Duration.ofMinutes(165));
        assertThat(ping.timeout()).isEqualTo(Duration.ofSeconds(1, 7));
        assertThat(ping.sampling()).isEqualTo(3);
        assertThat(ping.httpMethod()).isEqualTo("GET");
    }

    @Test
    void bindWhenZerosThenXrayDefaults() {
        PingConfig ping =
                ping("burst.ping-config.interval=0", "burst.ping-config.sampling=0", "burst.ping-config.timeout=0");

        assertThat(ping.effectiveInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(ping.sampling()).isEqualTo(10);
        assertThat(ping.timeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void bindWhenIntervalBelowTenSecondsThenTenSecondsAndWarning() {
        ObservatoryConfigBinder.Bound bound = Configs.bound("burst.ping-config.interval=5s");

        assertThat(bound.config().burst().pingConfig().effectiveInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(bound.warnings())
                .containsExactly("observatory.burst.ping-config.interval: 5s is too small, 10s is applied");
    }

    @Test
    void bindWhenIntervalTenSecondsThenKeptWithoutWarning() {
        ObservatoryConfigBinder.Bound bound = Configs.bound("burst.ping-config.interval=10s");

        assertThat(bound.config().burst().pingConfig().effectiveInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(bound.warnings()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "interval=-1m                | interval: -1m0s " + INTERVAL,
                "interval=2562047h           | interval: 2562047h0m0s " + INTERVAL,
                "interval=24h0m0.000000001s  | interval: 24h0m0.000000001s " + INTERVAL,
                "timeout=-300ms              | timeout: -300ms " + TIMEOUT,
                "timeout=10m0.001s           | timeout: 10m0.001s " + TIMEOUT,
                "sampling=-1                 | sampling: -1 " + SAMPLING,
                "sampling=1001               | sampling: 1001 " + SAMPLING,
                "sampling=20000000           | sampling: 20000000 " + SAMPLING,
                "sampling=2000000000         | sampling: 2000000000 " + SAMPLING,
                "http-method=                | http-method: (empty) " + METHOD,
                "http-method=CONNECT         | http-method: CONNECT " + METHOD,
                "destination=http://         | destination: http:// (expected: an absolute http or https URL with a "
                        + "host, e.g. https://example.com/generate_204)",
                "destination=http://127.0.0.1:0/ | destination: http://127.0.0.1:0/ (expected: port 1-65535)",
                "connectivity=ftp://user:s3cret@10.0.0.1/ | connectivity: ftp://user:******@10.0.0.1/ (expected: an "
                        + "absolute http or https URL with a host, e.g. https://example.com/generate_204)",
                "connectivity=not a url      | connectivity: not a url (expected: an absolute http or https URL with a "
                        + "host, e.g. https://example.com/generate_204)"
            })
    void bindWhenPingConfigValueBadThenOneLineNamesFullProperty(String assignment, String line) {
        assertThat(Configs.rejection("burst.ping-config." + assignment))
                .isEqualTo("observatory.burst.ping-config." + line);
    }

    @Test
    void bindWhenIntervalAndSamplingAtLimitsThenCycleAndValidityComputable() {
        PingConfig ping = ping(
                "burst.ping-config.interval=24h", "burst.ping-config.sampling=1000", "burst.ping-config.timeout=10m");

        assertThat(ping.cycle()).isEqualTo(Duration.ofDays(1_000));
        assertThat(ping.validity().toNanos()).isEqualTo(Duration.ofDays(2_000).toNanos());
        assertThat(ping.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(ping.sampling()).isEqualTo(1_000);
    }

    @Test
    void bindWhenHttpMethodPaddedThenTrimmed() {
        assertThat(ping("burst.ping-config.http-method= GET ").httpMethod()).isEqualTo("GET");
    }

    @Test
    void bindWhenConnectivitySetThenTrimmedUrl() {
        assertThat(ping("burst.ping-config.connectivity= http://10.0.0.1/generate_204 ")
                        .connectivityUri())
                .isEqualTo(URI.create("http://10.0.0.1/generate_204"));
    }

    @Test
    void bindWhenPingConfigMissingThenRefusedAsXrayRefusesIt() {
        // infra/conf/observatory.go: "BurstObservatory requires a valid pingConfig"
        assertThat(Configs.rejection("burst.subject-selector=proxy_"))
                .isEqualTo("observatory.burst.ping-config: (none)"
                        + " (expected: a ping-config section, as Xray requires; ping-config: {} takes every default)");
    }

    @Test
    void bindWhenSelectorEntryEmptyThenEveryOutboundSelectedAsXraysPrefixMatch() {
        ObservatoryConfigBinder.Bound bound = Configs.bound(
                "outbounds[0].tag=proxy_de",
                "outbounds[0].protocol=direct",
                "outbounds[1].tag=direct",
                "outbounds[1].protocol=direct",
                "burst.subject-selector[0]=",
                "burst.ping-config=");

        assertThat(new SubjectSelector(bound.config().burst().subjectSelector())
                        .select(bound.config().outbounds()))
                .extracting(Outbound::tag)
                .containsExactly("direct", "proxy_de");
        assertThat(bound.warnings()).isEmpty();
    }

    @Test
    void bindWhenSelectorMatchesNoOutboundThenWarning() {
        assertThat(Configs.bound(
                                "outbounds[0].tag=proxy_de",
                                "outbounds[0].protocol=direct",
                                "burst.subject-selector=vpn_",
                                "burst.ping-config=")
                        .warnings())
                .containsExactly(
                        "observatory.burst.subject-selector[0]: vpn_ matches no outbound tag (tags: proxy_de)");
    }

    @Test
    void bindWhenActiveCheckAndRatioSetThenStatusesThresholdsAndRatio() {
        BurstObserverSettings burst = burst(
                "burst.ping-config=",
                "burst.expected-status=204",
                "burst.healthy-threshold=3",
                "burst.unhealthy-threshold=2",
                "burst.max-failure-ratio=0.25");

        assertThat(burst.windowRule().check())
                .isEqualTo(new ActiveCheck(ExpectedStatus.parse("204"), new ActiveHealthPolicy(3, 2)));
        assertThat(burst.windowRule().maxFailureRatio()).isEqualTo(OptionalDouble.of(0.25));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0, 0.0", "1, 1.0", "0.5, 0.5"})
    void bindWhenMaxFailureRatioAtEdgesThenKept(String value, double ratio) {
        assertThat(burst("burst.ping-config=", "burst.max-failure-ratio=" + value)
                        .windowRule()
                        .maxFailureRatio())
                .isEqualTo(OptionalDouble.of(ratio));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "expected-status=1000     | expected-status: 1000 " + EXPECTED_STATUS,
                "healthy-threshold=0      | healthy-threshold: 0 (expected: >= 1)",
                "unhealthy-threshold=-5   | unhealthy-threshold: -5 (expected: >= 1)",
                "max-failure-ratio=-0.1   | max-failure-ratio: -0.1 (expected: >= 0 and <= 1)",
                "max-failure-ratio=1.01   | max-failure-ratio: 1.01 (expected: >= 0 and <= 1)",
                "max-failure-ratio=2      | max-failure-ratio: 2 (expected: >= 0 and <= 1)",
                "max-failure-ratio=NaN    | max-failure-ratio: NaN (expected: >= 0 and <= 1)"
            })
    void bindWhenActiveCheckValueBadThenOneLineNamesFullProperty(String assignment, String line) {
        assertThat(Configs.rejection("burst.ping-config=", "burst." + assignment))
                .isEqualTo("observatory.burst." + line);
    }
}
