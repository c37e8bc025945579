package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.ProbeIntervals;
import io.observatory.testing.Configs;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StandardObserverSettingsTest {

    static final String EXPECTED_STATUS = "(expected: any, or HTTP statuses 100-599 as N, N-M or a "
            + "/-separated list, e.g. 204, 200-299, 200/204/301-399)";

    private static StandardObserverSettings standard(String... properties) {
        return Configs.of(properties).standard();
    }

    @Test
    void connectTimeoutWhenLeftOutThenPerOutboundTakesTheIntervalPlusTheGraceUnlessTheTimeoutIsShorter() {
        assertThat(standard("standard.schedule=per-outbound", "standard.probe-interval=1s", "standard.timeout=2s")
                        .connectTimeout())
                .isEqualTo(Duration.ofMillis(1_020));
        assertThat(standard("standard.schedule=per-outbound", "standard.probe-interval=10s", "standard.timeout=5s")
                        .connectTimeout())
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(standard("standard.probe-interval=1s", "standard.timeout=2s").connectTimeout())
                .as("Xray's schedule keeps Xray's single deadline")
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(standard("standard.probe-interval=1s", "standard.connect-timeout=1500ms")
                        .connectTimeout())
                .isEqualTo(Duration.ofMillis(1_500));
    }

    @Test
    void connectTimeoutWhenLongerThanTheTimeoutThenOneLine() {
        assertThat(Configs.rejection("standard.timeout=2s", "standard.connect-timeout=3s"))
                .isEqualTo("observatory.standard.connect-timeout: 3s (expected: at most the timeout (2s), which bounds"
                        + " the probe)");
    }

    @Test
    void toStringWhenPrintedThenGoDurationAndNoPassword() {
        StandardObserverSettings settings = Configs.xrayStandard(
                List.of("proxy_"),
                "http://user:s3cret@10.0.0.1/ready",
                Duration.ofHours(2),
                true,
                ExpectedStatus.ANY,
                1,
                1);

        assertThat(settings)
                .hasToString("StandardObserverSettings[subjectSelector=[proxy_], "
                        + "probeUrl=http://user:******@10.0.0.1/ready, probeInterval=2h0m0s, enableConcurrency=true, "
                        + "timeout=5s, connectTimeout=5s, activeCheck=ActiveCheck[expectedStatus=any, "
                        + "thresholds=ActiveHealthPolicy[healthyThreshold=1, unhealthyThreshold=1]]]");
    }

    @Test
    void bindWhenOnlySelectorSetThenXrayDefaults() {
        StandardObserverSettings standard = standard("standard.subject-selector=proxy_");

        assertThat(standard.subjectSelector()).containsExactly("proxy_");
        assertThat(standard.probeUri()).isEqualTo(URI.create("https://www.google.com/generate_204"));
        assertThat(standard.probeInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(standard.enableConcurrency()).isFalse();
        assertThat(standard.activeCheck()).isEqualTo(new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)));
        assertThat(standard.activeCheck().expectedStatus()).hasToString("any");
    }

    @Test
    void bindWhenEverySettingGivenThenBound() {
        StandardObserverSettings standard = standard(
                "standard.subject-selector=proxy_,direct",
                "standard.probe-url=https://example.com/generate_204",
                "standard.probe-interval=1.5s",
                "standard.enable-concurrency=true");

        assertThat(standard)
                .isEqualTo(Configs.xrayStandard(
                        List.of("proxy_", "direct"),
                        "https://example.com/generate_204",
                        Duration.ofMillis(1_500),
                        true,
                        ExpectedStatus.ANY,
                        1,
                        1));
    }

    @Test
    void bindWhenPerOutboundWithoutIntervalsThenEachDefaultFollowsTheIntervalItIsDefinedBy() {
        StandardObserverSettings standard = standard(
                "standard.schedule=per-outbound", "standard.probe-interval=2s", "standard.unhealthy-interval=7s");

        assertThat(standard.schedule()).isEqualTo(StandardObserverSettings.Schedule.PER_OUTBOUND);
        assertThat(standard.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(standard.intervals())
                .isEqualTo(new ProbeIntervals(
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(7),
                        Duration.ofSeconds(7),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(2),
                        Duration.ZERO));
    }

    @Test
    void bindWhenPerOutboundWithEveryOptionThenBoundAndPrinted() {
        StandardObserverSettings standard = standard(
                "standard.subject-selector=p",
                "standard.schedule=per-outbound",
                "standard.probe-interval=1s",
                "standard.timeout=800ms",
                "standard.initial-jitter=0",
                "standard.interval-jitter=100ms",
                "standard.unhealthy-interval=5s",
                "standard.unhealthy-edge-interval=250ms",
                "standard.healthy-edge-interval=500ms");

        assertThat(standard.intervals())
                .isEqualTo(new ProbeIntervals(
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(5),
                        Duration.ofMillis(250),
                        Duration.ofMillis(500),
                        Duration.ZERO,
                        Duration.ofMillis(100)));
        assertThat(standard)
                .hasToString("StandardObserverSettings[subjectSelector=[p], "
                        + "probeUrl=https://www.google.com/generate_204, probeInterval=1s, schedule=per-outbound, "
                        + "unhealthyInterval=5s, unhealthyEdgeInterval=250ms, healthyEdgeInterval=500ms, initialJitter=0s, "
                        + "intervalJitter=100ms, timeout=800ms, connectTimeout=800ms, activeCheck=ActiveCheck[expectedStatus=any, "
                        + "thresholds=ActiveHealthPolicy[healthyThreshold=1, unhealthyThreshold=1]]]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "standard.timeout=0 | observatory.standard.timeout: 0s (expected: a positive duration)",
                "standard.unhealthy-interval=-1s | observatory.standard.unhealthy-interval: -1s (expected: a positive"
                        + " duration)",
                "standard.unhealthy-edge-interval=0s | observatory.standard.unhealthy-edge-interval: 0s (expected: a"
                        + " positive duration)",
                "standard.healthy-edge-interval=0s | observatory.standard.healthy-edge-interval: 0s (expected: a"
                        + " positive duration)",
                "standard.initial-jitter=-5ms | observatory.standard.initial-jitter: -5ms (expected: 0 or a positive"
                        + " duration)",
                "standard.interval-jitter=-1ns | observatory.standard.interval-jitter: -1ns (expected: 0 or a positive"
                        + " duration)",
                "standard.schedule=parallel | observatory.standard.schedule: parallel (expected: one of xray,"
                        + " per-outbound)"
            })
    void bindWhenScheduleOptionOutOfRangeThenOneLineNamingIt(String property, String error) {
        assertThat(Configs.rejection(property)).isEqualTo(error);
    }

    @Test
    void bindWhenOptionOfTheOtherScheduleSetThenWarnedAsWithoutEffect() {
        List<String> outbound =
                List.of("outbounds[0].tag=p", "outbounds[0].protocol=direct", "standard.subject-selector=p");

        assertThat(Configs.bound(with(outbound, "standard.unhealthy-edge-interval=250ms", "standard.initial-jitter=0"))
                        .warnings())
                .containsExactly(
                        "observatory.standard.initial-jitter: has no effect with observatory.standard.schedule xray (it"
                                + " applies to schedule per-outbound)",
                        "observatory.standard.unhealthy-edge-interval: has no effect with observatory.standard.schedule xray"
                                + " (it applies to schedule per-outbound)");
        assertThat(Configs.bound(with(outbound, "standard.schedule=per-outbound", "standard.enable-concurrency=true"))
                        .warnings())
                .containsExactly("observatory.standard.enable-concurrency: has no effect with"
                        + " observatory.standard.schedule per-outbound (every outbound has its own probe session)");
        assertThat(Configs.bound(with(outbound, "standard.schedule=per-outbound", "standard.healthy-edge-interval=1s"))
                        .warnings())
                .isEmpty();
    }

    private static String[] with(List<String> properties, String... more) {
        return java.util.stream.Stream.concat(properties.stream(), java.util.Arrays.stream(more))
                .toArray(String[]::new);
    }

    @Test
    void bindWhenProbeIntervalZeroThenTenSeconds() {
        assertThat(standard("standard.probe-interval=0").probeInterval()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void bindWhenProbeIntervalNegativeThenError() {
        assertThat(Configs.rejection("standard.probe-interval=-1s"))
                .isEqualTo(
                        "observatory.standard.probe-interval: -1s (expected: a positive duration, or 0 for the default 10s)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1ns, 1ns", "999ms, 999ms"})
    void bindWhenProbeIntervalBelowOneSecondThenKeptWithOneWarningInGoForm(String interval, String printed) {
        ObservatoryConfigBinder.Bound bound = Configs.bound("standard.probe-interval=" + interval);

        assertThat(bound.config().standard().probeInterval()).isLessThan(Duration.ofSeconds(1));
        assertThat(bound.warnings())
                .containsExactly("observatory.standard.probe-interval: " + printed
                        + " is very short: outbounds may be probed more than once a second");
    }

    @Test
    void bindWhenProbeIntervalOneSecondThenNoWarning() {
        assertThat(Configs.bound(
                                "standard.probe-interval=1s",
                                "outbounds[0].tag=p",
                                "outbounds[0].protocol=direct",
                                "standard.subject-selector=p")
                        .warnings())
                .isEmpty();
    }

    @Test
    void bindWhenProbeIntervalLongestGoDurationThenKeptWithoutLimit() {
        assertThat(standard("standard.probe-interval=2562047h47m16.854775807s").probeInterval())
                .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    }

    @Test
    void bindWhenProbeUrlWithPasswordHasBadPortThenPasswordMasked() {
        assertThat(Configs.rejection("standard.probe-url=https://user:s3cret@example.com:99999/generate_204"))
                .isEqualTo("observatory.standard.probe-url: https://user:******@example.com:99999/generate_204 "
                        + "(expected: port 1-65535)");
    }

    @Test
    void bindWhenProbeUrlBlankThenDefault() {
        assertThat(standard("standard.probe-url=  ").probeUri())
                .isEqualTo(URI.create("https://www.google.com/generate_204"));
    }

    @Test
    void bindWhenProbeUrlRelativeThenError() {
        assertThat(Configs.rejection("standard.probe-url=/generate_204"))
                .isEqualTo("observatory.standard.probe-url: "
                        + "/generate_204 (expected: an absolute http or https URL with a host, e.g. "
                        + "https://example.com/generate_204)");
    }

    @Test
    void bindWhenSelectorEntryEmptyThenKeptAndSelectsEveryOutboundAsXraysPrefixMatch() {
        ObservatoryConfigBinder.Bound bound = Configs.bound(
                "outbounds[0].tag=direct",
                "outbounds[0].protocol=direct",
                "standard.subject-selector[0]=proxy_",
                "standard.subject-selector[1]=");

        assertThat(bound.config().standard().subjectSelector()).containsExactly("proxy_", "");
        assertThat(new SubjectSelector(bound.config().standard().subjectSelector()).toString())
                .isEqualTo("[proxy_, \"\"]");
        assertThat(bound.warnings())
                .containsExactly(
                        "observatory.standard.subject-selector[0]: proxy_ matches no outbound tag (tags: direct)");
    }

    @Test
    void bindWhenSelectorMatchesNoOutboundThenWarningListsTags() {
        ObservatoryConfigBinder.Bound bound = Configs.bound(
                "outbounds[0].tag=proxy_de",
                "outbounds[0].protocol=socks",
                "outbounds[0].address=10.0.0.5",
                "outbounds[0].port=1080",
                "outbounds[1].tag=direct",
                "outbounds[1].protocol=direct",
                "standard.subject-selector=proxy_,vpn_");

        assertThat(bound.warnings())
                .containsExactly(
                        "observatory.standard.subject-selector[1]: vpn_ matches no outbound tag (tags: proxy_de, direct)");
    }

    @Test
    void bindWhenNoOutboundsThenSelectorWarningSaysSo() {
        assertThat(Configs.bound("standard.subject-selector=proxy_").warnings())
                .containsExactly("observatory.standard.subject-selector[0]: proxy_ matches no outbound tag "
                        + "(no outbounds are configured)");
    }

    @Test
    void bindWhenActiveCheckSetThenStatusesAndThresholds() {
        ActiveCheck check = standard(
                        "standard.expected-status=200/204/301-399",
                        "standard.healthy-threshold=2",
                        "standard.unhealthy-threshold=3")
                .activeCheck();

        assertThat(check.expectedStatus()).isEqualTo(ExpectedStatus.parse("200/204/301-399"));
        assertThat(check.unexpectedStatus(404)).contains("unexpected HTTP status 404 (expected: 200/204/301-399)");
        assertThat(check.unexpectedStatus(302)).isEmpty();
        assertThat(check.thresholds()).isEqualTo(new ActiveHealthPolicy(2, 3));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"ANY", "' any '", "Any"})
    void bindWhenExpectedStatusAnyInAnyCaseThenAny(String text) {
        assertThat(standard("standard.expected-status=" + text).activeCheck().expectedStatus())
                .isEqualTo(ExpectedStatus.ANY);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "expected-status=99      | expected-status: 99 " + EXPECTED_STATUS,
                "expected-status=600     | expected-status: 600 " + EXPECTED_STATUS,
                "expected-status=299-200 | expected-status: 299-200 " + EXPECTED_STATUS,
                "expected-status=2xx     | expected-status: 2xx " + EXPECTED_STATUS,
                "expected-status=200,204 | expected-status: 200,204 " + EXPECTED_STATUS,
                "expected-status=200/    | expected-status: 200/ " + EXPECTED_STATUS,
                "expected-status=        | expected-status: (empty) " + EXPECTED_STATUS,
                "healthy-threshold=0     | healthy-threshold: 0 (expected: >= 1)",
                "healthy-threshold=-1    | healthy-threshold: -1 (expected: >= 1)",
                "unhealthy-threshold=0   | unhealthy-threshold: 0 (expected: >= 1)"
            })
    void bindWhenActiveCheckValueBadThenOneLineNamesFullProperty(String assignment, String line) {
        assertThat(Configs.rejection("standard." + assignment)).isEqualTo("observatory.standard." + line);
    }
}
