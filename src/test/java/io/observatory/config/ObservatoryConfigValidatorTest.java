package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.observatory.config.ObservatoryProperties.BurstProperties;
import io.observatory.config.ObservatoryProperties.OutboundProperties;
import io.observatory.config.ObservatoryProperties.PingConfigProperties;
import io.observatory.config.ObservatoryProperties.StandardProperties;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.TransportFailureRatePolicy;
import io.observatory.testing.TestTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.support.GenericConversionService;

class ObservatoryConfigValidatorTest {

    private static final String EXPECTED_URL =
            "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)";

    private static final String EXPECTED_STATUS = "(expected: any, or HTTP statuses 100-599 as N, N-M or a "
            + "/-separated list, e.g. 204, 200-299, 200/204/301-399)";

    private final ObservatoryProperties properties = new ObservatoryProperties();
    private final List<String> warnings = new ArrayList<>();
    /** The process environment the validator sees. */
    private final Map<String, String> environment = new HashMap<>();

    private ObservatoryConfig validate() {
        return ObservatoryConfigValidator.validate(properties, warnings::add, environment::get);
    }

    /**
     * Binds {@code key=value} pairs separated by {@code ;}, keys below {@code observatory.} as a user writes them
     * (e.g. {@code passive.policy=consecutive-failures; passive.ceiling=5}), onto {@link #properties} as the service
     * binds them, Go durations included.
     */
    private void set(String assignments) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String assignment : assignments.split(";")) {
            int equals = assignment.indexOf('=');
            values.put("observatory." + assignment.substring(0, equals).strip(), assignment.substring(equals + 1));
        }
        GenericConversionService goDurations = new GenericConversionService();
        goDurations.addConverter(new GoDurationConverter());
        new Binder(List.of(new MapConfigurationPropertySource(values)), null,
                List.of(goDurations, ApplicationConversionService.getSharedInstance()), null, null, null)
                .bind("observatory", Bindable.ofInstance(properties));
    }

    private void assertInvalid(String message) {
        assertThatThrownBy(this::validate).isInstanceOf(InvalidConfigException.class).hasMessage(message);
    }

    private OutboundProperties addOutbound(String tag, Protocol protocol, String address, Integer port) {
        OutboundProperties outbound = new OutboundProperties();
        outbound.setTag(tag);
        outbound.setProtocol(protocol);
        outbound.setAddress(address);
        outbound.setPort(port);
        properties.getOutbounds().add(outbound);
        return outbound;
    }

    private StandardProperties standard(String... selectors) {
        StandardProperties standard = new StandardProperties();
        standard.setSubjectSelector(new ArrayList<>(List.of(selectors)));
        properties.setStandard(standard);
        return standard;
    }

    private PingConfigProperties burst(String... selectors) {
        BurstProperties burst = new BurstProperties();
        burst.setSubjectSelector(new ArrayList<>(List.of(selectors)));
        properties.setBurst(burst);
        return burst.getPingConfig();
    }

    @Test
    void validateWhenStandardAndBurstBothSetThenOnlyOneObserverError() {
        standard("proxy_");
        burst("proxy_");
        assertInvalid("observatory.burst: set together with observatory.standard (expected: only one observer can be "
                + "active: remove observatory.standard or observatory.burst)");
    }

    @Test
    void validateWhenNoObserverThenWarnsAndServesEmptyObservation() {
        addOutbound("direct", Protocol.DIRECT, null, null);

        ObservatoryConfig config = validate();

        assertThat(config.standard()).isEmpty();
        assertThat(config.burst()).isEmpty();
        assertThat(warnings).containsExactly("no observer configured: set observatory.standard or observatory.burst; "
                + "serving an empty observation");
    }

    @Nested
    class Outbounds {

        @Test
        void validateWhenProxiesAndDirectThenOutboundsInOrder() {
            OutboundProperties socks = addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            socks.setUsername("u");
            socks.setPassword("p");
            addOutbound("proxy_us", Protocol.HTTP, "10.0.0.6", 3128)
                    .setProbeUrl("http://health.internal/ready");
            addOutbound("direct", Protocol.DIRECT, null, null);
            standard("proxy_");

            assertThat(validate().outbounds()).containsExactly(
                    new Outbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080, "u", "p", null),
                    new Outbound("proxy_us", Protocol.HTTP, "10.0.0.6", 3128, null, null,
                            URI.create("http://health.internal/ready")),
                    Outbound.direct("direct"));
            assertThat(warnings).isEmpty();
        }

        @Test
        void validateWhenTagEmptyThenError() {
            addOutbound("", Protocol.DIRECT, null, null);
            assertInvalid("observatory.outbounds[0].tag: (empty) (expected: a non-blank tag)");
        }

        @Test
        void validateWhenTagMissingThenError() {
            addOutbound("direct", Protocol.DIRECT, null, null);
            addOutbound(null, Protocol.DIRECT, null, null);
            assertInvalid("observatory.outbounds[1].tag: (none) (expected: a non-blank tag)");
        }

        @Test
        void validateWhenTagDuplicatedThenErrorNamesBothIndexes() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            addOutbound("direct", Protocol.DIRECT, null, null);
            addOutbound("proxy_de", Protocol.HTTP, "10.0.0.6", 3128);
            assertInvalid("observatory.outbounds[2].tag: proxy_de "
                    + "(expected: a unique tag; observatory.outbounds[0].tag is also proxy_de)");
        }

        @Test
        void validateWhenProtocolMissingThenErrorListsProtocols() {
            addOutbound("proxy_de", null, "10.0.0.5", 1080);
            assertInvalid("observatory.outbounds[0].protocol: (none) (expected: one of direct, http, socks)");
        }

        @Test
        void validateWhenTagHasLineBreakThenOneLineRejectsControlCharacters() {
            addOutbound("a\nb", Protocol.DIRECT, null, null);
            assertInvalid("observatory.outbounds[0].tag: \"a\\nb\" (expected: a tag without control characters)");
        }

        @Test
        void validateWhenTagHasTabThenOneLineRejectsControlCharacters() {
            addOutbound("proxy\tde", Protocol.DIRECT, null, null);
            assertInvalid("observatory.outbounds[0].tag: \"proxy\\tde\" "
                    + "(expected: a tag without control characters)");
        }

        @Test
        void validateWhenProxyWithoutAddressThenError() {
            addOutbound("proxy_de", Protocol.SOCKS, null, 1080);
            assertInvalid("observatory.outbounds[0].address: (none) "
                    + "(expected: the proxy's host name or IP address, without a port)");
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({
                "127.0.0.1:1080",
                "proxy.example:1080",
                "[::1]:1080",
                "10.0.0.256",
                "1.2.3",
                "proxy host",
                "http://10.0.0.5",
                "[proxy.example]"})
        void validateWhenAddressIsNotHostOrIpThenOneLineSaysWithoutPort(String address) {
            addOutbound("proxy_de", Protocol.SOCKS, address, 1080);
            assertInvalid("observatory.outbounds[0].address: " + address
                    + " (expected: the proxy's host name or IP address, without a port)");
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({
                "10.0.0.5, 10.0.0.5",
                "proxy-1.example.com, proxy-1.example.com",
                "my_proxy.internal, my_proxy.internal",
                "localhost, localhost",
                "::1, ::1",
                "[::1], ::1",
                "[2001:db8::5], 2001:db8::5",
                "fe80::1%eth0, fe80::1%eth0"})
        void validateWhenAddressIsHostOrIpThenKeptWithoutBrackets(String address, String kept) {
            addOutbound("proxy_de", Protocol.SOCKS, address, 1080);
            assertThat(validate().outbounds().get(0).address()).isEqualTo(kept);
        }

        @Test
        void validateWhenPortAboveRangeThenError() {
            addOutbound("direct", Protocol.DIRECT, null, null);
            addOutbound("proxy_us", Protocol.HTTP, "10.0.0.6", 70000);
            assertInvalid("observatory.outbounds[1].port: 70000 (expected: 1-65535)");
        }

        @Test
        void validateWhenPortZeroThenError() {
            addOutbound("proxy_us", Protocol.HTTP, "10.0.0.6", 0);
            assertInvalid("observatory.outbounds[0].port: 0 (expected: 1-65535)");
        }

        @Test
        void validateWhenProxyWithoutPortThenError() {
            addOutbound("proxy_us", Protocol.HTTP, "10.0.0.6", null);
            assertInvalid("observatory.outbounds[0].port: (none) (expected: 1-65535)");
        }

        @Test
        void validateWhenDirectWithAddressThenError() {
            addOutbound("direct", Protocol.DIRECT, "10.0.0.5", null);
            assertInvalid("observatory.outbounds[0].address: 10.0.0.5 "
                    + "(expected: nothing for protocol direct, which uses no proxy)");
        }

        @Test
        void validateWhenDirectWithPortThenError() {
            addOutbound("direct", Protocol.DIRECT, null, 1080);
            assertInvalid("observatory.outbounds[0].port: 1080 "
                    + "(expected: nothing for protocol direct, which uses no proxy)");
        }

        @Test
        void validateWhenDirectWithPasswordThenErrorMasksIt() {
            addOutbound("direct", Protocol.DIRECT, null, null).setPassword("s3cret");
            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .hasMessage("observatory.outbounds[0].password: ****** "
                            + "(expected: nothing for protocol direct, which uses no proxy)")
                    .message().doesNotContain("s3cret");
        }

        @Test
        void validateWhenUsernameWithoutPasswordThenError() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080).setUsername("u");
            assertInvalid("observatory.outbounds[0].password: (none) "
                    + "(expected: a password, since observatory.outbounds[0].username is set)");
        }

        @Test
        void validateWhenPasswordEmptyWithUsernameThenErrorSaysEmptyNotMasked() {
            OutboundProperties outbound = addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            outbound.setUsername("u");
            outbound.setPassword("");
            assertInvalid("observatory.outbounds[0].password: (empty) "
                    + "(expected: a password, since observatory.outbounds[0].username is set)");
        }

        @Test
        void validateWhenPasswordWithoutUsernameThenErrorDoesNotPrintPassword() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080).setPassword("s3cret");
            assertInvalid("observatory.outbounds[0].username: (none) "
                    + "(expected: a username, since observatory.outbounds[0].password is set)");
        }

        @Test
        void validateWhenProbeUrlNotHttpThenError() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080).setProbeUrl("ftp://10.0.0.1/health");
            assertInvalid("observatory.outbounds[0].probe-url: ftp://10.0.0.1/health " + EXPECTED_URL);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"http://127.0.0.1:99999/", "http://127.0.0.1:0/", "https://127.0.0.1:99999999999/health"})
        void validateWhenProbeUrlPortOutOfRangeThenOneLineNamesPortRange(String url) {
            addOutbound("direct", Protocol.DIRECT, null, null).setProbeUrl(url);
            assertInvalid("observatory.outbounds[0].probe-url: " + url + " (expected: port 1-65535)");
        }

        @Test
        void validateWhenProbeUrlPortInRangeThenKept() {
            addOutbound("direct", Protocol.DIRECT, null, null).setProbeUrl("http://127.0.0.1:65535/");
            assertThat(validate().outbounds().get(0).probeUrl()).isEqualTo(URI.create("http://127.0.0.1:65535/"));
        }

        @Test
        void validateWhenProbeUrlHostHasUnderscoreThenOneLineSaysUnderscoreUnsupported() {
            addOutbound("direct", Protocol.DIRECT, null, null).setProbeUrl("http://my_host.example/");
            assertInvalid("observatory.outbounds[0].probe-url: http://my_host.example/ (expected: a host name of "
                    + "letters, digits, '-' and '.' ('_' is not supported in probe URLs))");
        }

        @Test
        void validateWhenProbeUrlWithPasswordHasBadPortThenPasswordMasked() {
            addOutbound("direct", Protocol.DIRECT, null, null).setProbeUrl("http://user:s3cret@127.0.0.1:0/");
            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .hasMessage("observatory.outbounds[0].probe-url: http://user:******@127.0.0.1:0/ "
                            + "(expected: port 1-65535)")
                    .message().doesNotContain("s3cret");
        }

        @Test
        void validateWhenUnparsableProbeUrlWithPasswordThenMaskedInMessageAndCause() {
            addOutbound("direct", Protocol.DIRECT, null, null).setProbeUrl("http://user:s3cret@ho st/");
            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .hasMessage("observatory.outbounds[0].probe-url: http://user:******@ho st/ " + EXPECTED_URL)
                    .cause().hasMessageNotContaining("s3cret")
                    .hasMessageContaining("http://user:******@ho st/");
        }
    }

    @Nested
    class Standard {

        @Test
        void validateWhenOnlySelectorSetThenXrayDefaults() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            standard("proxy_");

            assertThat(validate().standard()).contains(new StandardObserverSettings(List.of("proxy_"),
                    URI.create("https://www.google.com/generate_204"), Duration.ofSeconds(10), false,
                ActiveCheck.DEFAULT));
        }

        @Test
        void validateWhenProbeIntervalZeroThenTenSeconds() {
            standard().setProbeInterval(Duration.ZERO);
            assertThat(validate().standard().orElseThrow().probeInterval()).isEqualTo(Duration.ofSeconds(10));
        }

        @Test
        void validateWhenProbeIntervalNegativeThenError() {
            standard().setProbeInterval(Duration.ofSeconds(-1));
            assertInvalid("observatory.standard.probe-interval: -1s "
                    + "(expected: a positive duration, or 0 for the default 10s)");
        }

        @Test
        void validateWhenProbeIntervalBelowOneSecondThenKeptWithOneWarning() {
            standard().setProbeInterval(Duration.ofNanos(1));

            assertThat(validate().standard().orElseThrow().probeInterval()).isEqualTo(Duration.ofNanos(1));
            assertThat(warnings).containsExactly("observatory.standard.probe-interval: 1ns is very short: "
                    + "outbounds may be probed more than once a second");
        }

        @Test
        void validateWhenProbeIntervalJustBelowOneSecondThenWarningInGoForm() {
            standard().setProbeInterval(Duration.ofMillis(999));

            validate();

            assertThat(warnings).containsExactly("observatory.standard.probe-interval: 999ms is very short: "
                    + "outbounds may be probed more than once a second");
        }

        @Test
        void validateWhenProbeIntervalOneSecondThenNoWarning() {
            standard().setProbeInterval(Duration.ofSeconds(1));

            validate();

            assertThat(warnings).isEmpty();
        }

        @Test
        void validateWhenProbeIntervalLongestGoDurationThenKeptWithoutLimit() {
            standard().setProbeInterval(Duration.ofNanos(Long.MAX_VALUE));
            assertThat(validate().standard().orElseThrow().probeInterval())
                    .isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
        }

        @Test
        void validateWhenProbeUrlWithPasswordHasBadPortThenPasswordMasked() {
            standard().setProbeUrl("https://user:s3cret@example.com:99999/generate_204");
            assertInvalid("observatory.standard.probe-url: https://user:******@example.com:99999/generate_204 "
                    + "(expected: port 1-65535)");
        }

        @Test
        void validateWhenProbeUrlBlankThenDefault() {
            standard().setProbeUrl("  ");
            assertThat(validate().standard().orElseThrow().probeUrl())
                    .isEqualTo(StandardObserverSettings.DEFAULT_PROBE_URL);
        }

        @Test
        void validateWhenProbeUrlRelativeThenError() {
            standard().setProbeUrl("/generate_204");
            assertInvalid("observatory.standard.probe-url: /generate_204 "
                    + "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)");
        }

        @Test
        void validateWhenSelectorEntryBlankThenError() {
            standard("proxy_", "");
            assertInvalid("observatory.standard.subject-selector[1]: (empty) (expected: a non-blank tag prefix)");
        }

        @Test
        void validateWhenSelectorMatchesNoOutboundThenWarningListsTags() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            addOutbound("direct", Protocol.DIRECT, null, null);
            standard("proxy_", "vpn_");

            validate();

            assertThat(warnings).containsExactly(
                    "observatory.standard.subject-selector[1]: vpn_ matches no outbound tag (tags: proxy_de, direct)");
        }

        @Test
        void validateWhenNoOutboundsThenSelectorWarningSaysSo() {
            standard("proxy_");

            validate();

            assertThat(warnings).containsExactly(
                    "observatory.standard.subject-selector[0]: proxy_ matches no outbound tag "
                            + "(no outbounds are configured)");
        }
    }

    @Nested
    class Burst {

        @Test
        void validateWhenOnlySelectorSetThenXrayDefaults() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            burst("proxy_");

            BurstObserverSettings burst = validate().burst().orElseThrow();

            assertThat(burst.subjectSelector()).containsExactly("proxy_");
            assertThat(burst.pingConfig()).isEqualTo(new PingConfig(
                    URI.create("https://connectivitycheck.gstatic.com/generate_204"), null, Duration.ofMinutes(1), 10,
                    Duration.ofSeconds(5), "HEAD"));
            assertThat(warnings).isEmpty();
        }

        @Test
        void validateWhenZerosThenXrayDefaults() {
            PingConfigProperties ping = burst();
            ping.setInterval(Duration.ZERO);
            ping.setSampling(0);
            ping.setTimeout(Duration.ZERO);

            PingConfig config = validate().burst().orElseThrow().pingConfig();

            assertThat(config.interval()).isEqualTo(Duration.ofMinutes(1));
            assertThat(config.sampling()).isEqualTo(10);
            assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(5));
        }

        @Test
        void validateWhenIntervalBelowTenSecondsThenTenSecondsAndWarning() {
            burst().setInterval(Duration.ofSeconds(5));

            assertThat(validate().burst().orElseThrow().pingConfig().interval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(warnings).containsExactly("observatory.burst.ping-config.interval: 5s is too small, 10s is applied");
        }

        @Test
        void validateWhenIntervalTenSecondsThenKeptWithoutWarning() {
            burst().setInterval(Duration.ofSeconds(10));

            assertThat(validate().burst().orElseThrow().pingConfig().interval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(warnings).isEmpty();
        }

        @Test
        void validateWhenIntervalNegativeThenError() {
            burst().setInterval(Duration.ofMinutes(-1));
            assertInvalid("observatory.burst.ping-config.interval: -1m0s "
                    + "(expected: a positive duration up to 24h0m0s, or 0 for the default 1m0s)");
        }

        @Test
        void validateWhenIntervalAboveLimitThenOneLineNamesLimit() {
            burst().setInterval(Duration.ofHours(2_562_047));
            assertInvalid("observatory.burst.ping-config.interval: 2562047h0m0s "
                    + "(expected: a positive duration up to 24h0m0s, or 0 for the default 1m0s)");
        }

        @Test
        void validateWhenIntervalJustAboveLimitThenOneLineNamesLimit() {
            burst().setInterval(Duration.ofHours(24).plusNanos(1));
            assertInvalid("observatory.burst.ping-config.interval: 24h0m0.000000001s "
                    + "(expected: a positive duration up to 24h0m0s, or 0 for the default 1m0s)");
        }

        @Test
        void validateWhenIntervalAndSamplingAtLimitsThenCycleAndValidityComputable() {
            PingConfigProperties ping = burst();
            ping.setInterval(Duration.ofHours(24));
            ping.setSampling(1_000);

            PingConfig config = validate().burst().orElseThrow().pingConfig();

            assertThat(config.cycle()).isEqualTo(Duration.ofDays(1_000));
            assertThat(config.validity().toNanos()).isEqualTo(Duration.ofDays(2_000).toNanos());
        }

        @Test
        void validateWhenTimeoutNegativeThenError() {
            burst().setTimeout(Duration.ofMillis(-300));
            assertInvalid("observatory.burst.ping-config.timeout: -300ms "
                    + "(expected: a positive duration up to 10m0s, or 0 for the default 5s)");
        }

        @Test
        void validateWhenTimeoutAboveLimitThenOneLineNamesLimit() {
            burst().setTimeout(Duration.ofMinutes(10).plusMillis(1));
            assertInvalid("observatory.burst.ping-config.timeout: 10m0.001s "
                    + "(expected: a positive duration up to 10m0s, or 0 for the default 5s)");
        }

        @Test
        void validateWhenTimeoutAtLimitThenKept() {
            burst().setTimeout(Duration.ofMinutes(10));
            assertThat(validate().burst().orElseThrow().pingConfig().timeout()).isEqualTo(Duration.ofMinutes(10));
        }

        @Test
        void validateWhenSamplingNegativeThenError() {
            burst().setSampling(-1);
            assertInvalid("observatory.burst.ping-config.sampling: -1 "
                    + "(expected: 1-1000 samples, or 0 for the default 10)");
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"1001", "20000000", "2000000000"})
        void validateWhenSamplingAboveLimitThenOneLineNamesLimit(int sampling) {
            burst().setSampling(sampling);
            assertInvalid("observatory.burst.ping-config.sampling: " + sampling
                    + " (expected: 1-1000 samples, or 0 for the default 10)");
        }

        @Test
        void validateWhenSamplingAtLimitThenKept() {
            burst().setSampling(1_000);
            assertThat(validate().burst().orElseThrow().pingConfig().sampling()).isEqualTo(1_000);
        }

        @Test
        void validateWhenHttpMethodPaddedThenTrimmed() {
            burst().setHttpMethod(" GET ");
            assertThat(validate().burst().orElseThrow().pingConfig().httpMethod()).isEqualTo("GET");
        }

        @Test
        void validateWhenHttpMethodEmptyThenError() {
            burst().setHttpMethod("");
            assertInvalid("observatory.burst.ping-config.http-method: (empty) "
                    + "(expected: an HTTP method such as HEAD or GET)");
        }

        @Test
        void validateWhenDestinationHasNoHostThenError() {
            burst().setDestination("http://");
            assertInvalid("observatory.burst.ping-config.destination: http:// " + EXPECTED_URL);
        }

        @Test
        void validateWhenDestinationPortZeroThenOneLineNamesPortRange() {
            burst().setDestination("http://127.0.0.1:0/");
            assertInvalid("observatory.burst.ping-config.destination: http://127.0.0.1:0/ (expected: port 1-65535)");
        }

        @Test
        void validateWhenConnectivityWithPasswordIsNotHttpThenPasswordMasked() {
            burst().setConnectivity("ftp://user:s3cret@10.0.0.1/");
            assertInvalid("observatory.burst.ping-config.connectivity: ftp://user:******@10.0.0.1/ " + EXPECTED_URL);
        }

        @Test
        void validateWhenConnectivitySetThenTrimmedUrl() {
            burst().setConnectivity(" http://10.0.0.1/generate_204 ");
            assertThat(validate().burst().orElseThrow().pingConfig().connectivity())
                    .isEqualTo(URI.create("http://10.0.0.1/generate_204"));
        }

        @Test
        void validateWhenConnectivityNotUrlThenError() {
            burst().setConnectivity("not a url");
            assertInvalid("observatory.burst.ping-config.connectivity: not a url "
                    + "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)");
        }

        @Test
        void validateWhenSelectorEntryBlankThenError() {
            burst(" ");
            assertInvalid("observatory.burst.subject-selector[0]: \" \" (expected: a non-blank tag prefix)");
        }

        @Test
        void validateWhenSelectorMatchesNoOutboundThenWarning() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            burst("vpn_");

            validate();

            assertThat(warnings).containsExactly(
                    "observatory.burst.subject-selector[0]: vpn_ matches no outbound tag (tags: proxy_de)");
        }
    }

    @Nested
    class Probe {

        @TempDir
        Path directory;

        @Test
        void validateWhenDefaultsThenBrowserHeadersAndDefaultConcurrency() {
            ProbeSettings probe = validate().probe();

            assertThat(probe.maxConcurrent()).isEqualTo(1024);
            assertThat(probe.trustedCertificates()).isNull();
            assertThat(probe.headers()).containsExactlyEntriesOf(ProbeSettings.DEFAULT_HEADERS);
        }

        @Test
        void validateWhenMaxConcurrentZeroThenError() {
            properties.getProbe().setMaxConcurrent(0);
            assertInvalid("observatory.probe.max-concurrent: 0 (expected: at least 1)");
        }

        @Test
        void validateWhenTrustedCertificatesHoldCertificateThenPath() {
            Path pem = TestTls.certificatePath();
            properties.getProbe().setTrustedCertificates(pem.toString());

            assertThat(validate().probe().trustedCertificates()).isEqualTo(pem);
        }

        @Test
        void validateWhenTrustedCertificatesEmptyThenOneLineFoundNone() throws IOException {
            Path empty = Files.createFile(directory.resolve("empty.pem"));
            properties.getProbe().setTrustedCertificates(empty.toString());
            assertInvalid("observatory.probe.trusted-certificates: " + empty
                    + " (expected: a PEM file with at least one X.509 certificate; found none)");
        }

        @Test
        void validateWhenTrustedCertificatesIsRandomTextThenOneLineParseError() throws IOException {
            Path text = Files.writeString(directory.resolve("notes.pem"), "not a certificate\nat all\n");
            properties.getProbe().setTrustedCertificates(text.toString());
            assertInvalid("observatory.probe.trusted-certificates: " + text + " (expected: a PEM file with at least "
                    + "one X.509 certificate; parse error: " + parseError(text) + ")");
        }

        @Test
        void validateWhenTrustedCertificatesIsPrivateKeyOnlyThenOneLineParseError() {
            Path key = TestTls.privateKeyPath();
            properties.getProbe().setTrustedCertificates(key.toString());
            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessage("observatory.probe.trusted-certificates: " + key + " (expected: a PEM file with at "
                            + "least one X.509 certificate; parse error: " + parseError(key) + ")")
                    .hasCauseInstanceOf(CertificateException.class)
                    .message().doesNotContain("\n");
        }

        /** The JDK's own one-line message for the file, so that the expectation does not depend on the JDK. */
        private String parseError(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                CertificateFactory.getInstance("X.509").generateCertificates(in);
            } catch (IOException | CertificateException e) {
                return e.getMessage().replaceAll("\\s+", " ").strip();
            }
            throw new AssertionError(file + " parsed");
        }

        @Test
        void validateWhenTrustedCertificatesMissingThenError() {
            String missing = directory.resolve("missing.pem").toString();
            properties.getProbe().setTrustedCertificates(missing);
            assertInvalid("observatory.probe.trusted-certificates: " + missing
                    + " (expected: the path of an existing PEM file)");
        }

        @Test
        void validateWhenTrustedCertificatesIsDirectoryThenError() {
            properties.getProbe().setTrustedCertificates(directory.toString());
            assertInvalid("observatory.probe.trusted-certificates: " + directory
                    + " (expected: the path of an existing PEM file)");
        }

        @Test
        void validateWhenHeaderOverriddenInOtherCaseThenReplacedInBrowserOrder() {
            Map<String, String> headers = properties.getProbe().getHeaders();
            headers.put("user-agent", "observatory-test");
            headers.put("X-Probe", "1");

            Map<String, String> sent = validate().probe().headers();

            assertThat(sent.keySet()).containsExactly("sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform",
                    "Upgrade-Insecure-Requests", "User-Agent", "Accept", "Sec-Fetch-Site", "Sec-Fetch-Mode",
                    "Sec-Fetch-User", "Sec-Fetch-Dest", "Accept-Language", "X-Probe");
            assertThat(sent).containsEntry("User-Agent", "observatory-test");
        }

        @Test
        void validateWhenHeaderEmptyThenRemoved() {
            properties.getProbe().getHeaders().put("SEC-CH-UA", "");

            assertThat(validate().probe().headers()).doesNotContainKey("sec-ch-ua").hasSize(10);
        }

        @Test
        void validateWhenHeaderNameHasSpaceThenError() {
            properties.getProbe().setHeaders(new LinkedHashMap<>(Map.of("X Probe", "1")));
            assertInvalid("observatory.probe.headers: X Probe "
                    + "(expected: header names made of letters, digits and !#$%&'*+-.^_`|~)");
        }

        @Test
        void validateWhenHeaderValueHasLineBreakThenErrorStaysOneLine() {
            properties.getProbe().setHeaders(new LinkedHashMap<>(Map.of("X-Probe", "a\r\nInjected: 1")));
            assertInvalid("observatory.probe.headers[X-Probe]: \"a\\r\\nInjected: 1\" "
                    + "(expected: a header value on one line)");
        }
    }

    @Nested
    class ActiveChecks {

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"standard", "burst"})
        void validateWhenNotSetThenXrayBehaviourAnyStatusThresholdsOne(String observer) {
            set(observer + ".subject-selector=proxy_");

            ObservatoryConfig config = validate();

            ActiveCheck check = observer.equals("standard") ? config.standard().orElseThrow().activeCheck()
                    : config.burst().orElseThrow().activeCheck();
            assertThat(check).isEqualTo(ActiveCheck.DEFAULT);
            assertThat(check.expectedStatus().toString()).isEqualTo("any");
            assertThat(check.thresholds()).isEqualTo(new ActiveHealthPolicy(1, 1));
        }

        @Test
        void validateWhenStandardActiveCheckSetThenStatusesAndThresholds() {
            set("standard.expected-status=200/204/301-399; standard.healthy-threshold=2;"
                    + " standard.unhealthy-threshold=3");

            ActiveCheck check = validate().standard().orElseThrow().activeCheck();

            assertThat(check.expectedStatus()).isEqualTo(ExpectedStatus.parse("200/204/301-399"));
            assertThat(check.unexpectedStatus(404)).contains("unexpected HTTP status 404 (expected: 200/204/301-399)");
            assertThat(check.unexpectedStatus(302)).isEmpty();
            assertThat(check.thresholds()).isEqualTo(new ActiveHealthPolicy(2, 3));
        }

        @Test
        void validateWhenBurstActiveCheckAndRatioSetThenStatusesThresholdsAndRatio() {
            set("burst.expected-status=204; burst.healthy-threshold=3; burst.unhealthy-threshold=2;"
                    + " burst.max-failure-ratio=0.25");

            BurstObserverSettings burst = validate().burst().orElseThrow();

            assertThat(burst.activeCheck()).isEqualTo(
                    new ActiveCheck(ExpectedStatus.parse("204"), new ActiveHealthPolicy(3, 2)));
            assertThat(burst.maxFailureRatio()).isEqualTo(OptionalDouble.of(0.25));
        }

        @Test
        void validateWhenMaxFailureRatioNotSetThenOff() {
            set("burst.subject-selector=proxy_");
            assertThat(validate().burst().orElseThrow().maxFailureRatio()).isEmpty();
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"0, 0.0", "1, 1.0", "0.5, 0.5"})
        void validateWhenMaxFailureRatioAtEdgesThenKept(String value, double ratio) {
            set("burst.max-failure-ratio=" + value);
            assertThat(validate().burst().orElseThrow().maxFailureRatio()).isEqualTo(OptionalDouble.of(ratio));
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"ANY", "' any '", "Any"})
        void validateWhenExpectedStatusAnyInAnyCaseThenAny(String text) {
            set("standard.expected-status=" + text);
            assertThat(validate().standard().orElseThrow().activeCheck().expectedStatus()).isEqualTo(ExpectedStatus.ANY);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
                "standard.expected-status=99          | observatory.standard.expected-status: 99 " + EXPECTED_STATUS,
                "standard.expected-status=600         | observatory.standard.expected-status: 600 " + EXPECTED_STATUS,
                "standard.expected-status=299-200     | observatory.standard.expected-status: 299-200 "
                        + EXPECTED_STATUS,
                "standard.expected-status=2xx         | observatory.standard.expected-status: 2xx " + EXPECTED_STATUS,
                "standard.expected-status=200,204     | observatory.standard.expected-status: 200,204 "
                        + EXPECTED_STATUS,
                "standard.expected-status=200/        | observatory.standard.expected-status: 200/ " + EXPECTED_STATUS,
                "standard.expected-status=            | observatory.standard.expected-status: (empty) "
                        + EXPECTED_STATUS,
                "standard.healthy-threshold=0         | observatory.standard.healthy-threshold: 0 (expected: >= 1)",
                "standard.healthy-threshold=-1        | observatory.standard.healthy-threshold: -1 (expected: >= 1)",
                "standard.unhealthy-threshold=0       | observatory.standard.unhealthy-threshold: 0 (expected: >= 1)",
                "burst.expected-status=1000           | observatory.burst.expected-status: 1000 " + EXPECTED_STATUS,
                "burst.healthy-threshold=0            | observatory.burst.healthy-threshold: 0 (expected: >= 1)",
                "burst.unhealthy-threshold=-5         | observatory.burst.unhealthy-threshold: -5 (expected: >= 1)",
                "burst.max-failure-ratio=-0.1         | observatory.burst.max-failure-ratio: -0.1 "
                        + "(expected: >= 0 and <= 1)",
                "burst.max-failure-ratio=1.01         | observatory.burst.max-failure-ratio: 1.01 "
                        + "(expected: >= 0 and <= 1)",
                "burst.max-failure-ratio=2            | observatory.burst.max-failure-ratio: 2 "
                        + "(expected: >= 0 and <= 1)",
                "burst.max-failure-ratio=NaN          | observatory.burst.max-failure-ratio: NaN "
                        + "(expected: >= 0 and <= 1)"})
        void validateWhenActiveCheckValueBadThenOneLineNamesFullProperty(String assignments, String message) {
            set(assignments);
            assertInvalid(message);
        }
    }

    @Nested
    class Passive {

        /** An observer, so that the only warnings are about passive health. */
        @BeforeEach
        void standardObserver() {
            standard();
        }

        @Test
        void validateWhenNotSetThenYarpTransportFailureRateWithItsDefaults() {
            PassiveSettings passive = validate().passive();

            assertThat(passive).isEqualTo(PassiveSettings.DEFAULT);
            assertThat(passive.policy()).isEqualTo(new TransportFailureRatePolicy(Duration.ofSeconds(60), 10, 0.3,
                    Duration.ofSeconds(60)));
            assertThat(warnings).noneMatch(warning -> warning.contains("observatory.passive"));
        }

        @Test
        void validateWhenConsecutiveFailuresAloneThenSilkyCeilingAndYarpReactivation() {
            set("passive.policy=consecutive-failures");
            assertThat(validate().passive().policy())
                    .isEqualTo(new ConsecutiveFailuresPolicy(3, Duration.ofSeconds(60)));
        }

        @Test
        void validateWhenConsecutiveFailuresSetThenCeilingAndReactivation() {
            set("passive.policy=Consecutive-Failures; passive.ceiling=0; passive.reactivation-period=2m30s");

            assertThat(validate().passive().policy())
                    .isEqualTo(new ConsecutiveFailuresPolicy(0, Duration.ofSeconds(150)));
            assertThat(warnings).isEmpty();
        }

        @Test
        void validateWhenTransportFailureRateSetThenEveryParameter() {
            set("passive.policy=transport-failure-rate; passive.detection-window=2m; passive.minimal-total-count=1;"
                    + " passive.failure-rate-limit=1; passive.reactivation-period=5m");

            assertThat(validate().passive().policy()).isEqualTo(new TransportFailureRatePolicy(
                    Duration.ofMinutes(2), 1, 1.0, Duration.ofMinutes(5)));
            assertThat(warnings).isEmpty();
        }

        @Test
        void validateWhenReactivationShorterThanWindowThenKeptRaisedToWindowAndOneWarning() {
            set("passive.detection-window=90s; passive.reactivation-period=10s");

            TransportFailureRatePolicy policy = (TransportFailureRatePolicy) validate().passive().policy();

            assertThat(policy.reactivationPeriod()).isEqualTo(Duration.ofSeconds(10));
            assertThat(policy.effectiveReactivationPeriod()).isEqualTo(Duration.ofSeconds(90));
            assertThat(warnings).containsExactly("observatory.passive.reactivation-period: 10s is shorter than the "
                    + "detection window, 1m30s is applied");
        }

        @Test
        void validateWhenOnlyWindowLongerThanDefaultReactivationThenNoWarning() {
            set("passive.detection-window=5m");

            assertThat(validate().passive().policy().effectiveReactivationPeriod()).isEqualTo(Duration.ofMinutes(5));
            assertThat(warnings).isEmpty();
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
                "passive.policy=bogus                  | observatory.passive.policy: bogus "
                        + "(expected: one of transport-failure-rate, consecutive-failures)",
                "passive.policy=                       | observatory.passive.policy: (empty) "
                        + "(expected: one of transport-failure-rate, consecutive-failures)",
                "passive.policy=consecutive_failures   | observatory.passive.policy: consecutive_failures "
                        + "(expected: one of transport-failure-rate, consecutive-failures)",
                "passive.ceiling=5                     | observatory.passive.ceiling: 5 "
                        + "(expected: only with observatory.passive.policy consecutive-failures)",
                "passive.policy=transport-failure-rate; passive.ceiling=3 | observatory.passive.ceiling: 3 "
                        + "(expected: only with observatory.passive.policy consecutive-failures)",
                "passive.policy=consecutive-failures; passive.detection-window=30s | "
                        + "observatory.passive.detection-window: 30s "
                        + "(expected: only with observatory.passive.policy transport-failure-rate)",
                "passive.policy=consecutive-failures; passive.minimal-total-count=20 | "
                        + "observatory.passive.minimal-total-count: 20 "
                        + "(expected: only with observatory.passive.policy transport-failure-rate)",
                "passive.policy=consecutive-failures; passive.failure-rate-limit=0.5 | "
                        + "observatory.passive.failure-rate-limit: 0.5 "
                        + "(expected: only with observatory.passive.policy transport-failure-rate)",
                "passive.policy=consecutive-failures; passive.ceiling=-1 | observatory.passive.ceiling: -1 "
                        + "(expected: >= 0)",
                "passive.policy=consecutive-failures; passive.reactivation-period=0 | "
                        + "observatory.passive.reactivation-period: 0s (expected: > 0)",
                "passive.detection-window=0s           | observatory.passive.detection-window: 0s "
                        + "(expected: a whole number of seconds, >= 1s)",
                "passive.detection-window=999ms        | observatory.passive.detection-window: 999ms "
                        + "(expected: a whole number of seconds, >= 1s)",
                "passive.detection-window=1.5s         | observatory.passive.detection-window: 1.5s "
                        + "(expected: a whole number of seconds, >= 1s)",
                "passive.detection-window=-1m          | observatory.passive.detection-window: -1m0s "
                        + "(expected: a whole number of seconds, >= 1s)",
                "passive.minimal-total-count=0         | observatory.passive.minimal-total-count: 0 (expected: >= 1)",
                "passive.failure-rate-limit=0          | observatory.passive.failure-rate-limit: 0 "
                        + "(expected: > 0 and <= 1)",
                "passive.failure-rate-limit=1.5        | observatory.passive.failure-rate-limit: 1.5 "
                        + "(expected: > 0 and <= 1)",
                "passive.failure-rate-limit=NaN        | observatory.passive.failure-rate-limit: NaN "
                        + "(expected: > 0 and <= 1)",
                "passive.reactivation-period=-5s       | observatory.passive.reactivation-period: -5s (expected: > 0)"})
        void validateWhenPassiveValueBadThenOneLineNamesFullProperty(String assignments, String message) {
            set(assignments);
            assertInvalid(message);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"1s, 1", "60s, 60", "1h, 3600"})
        void validateWhenDetectionWindowWholeSecondsThenKept(String window, long seconds) {
            set("passive.detection-window=" + window);
            assertThat(((TransportFailureRatePolicy) validate().passive().policy()).detectionWindow())
                    .isEqualTo(Duration.ofSeconds(seconds));
        }
    }

    @Nested
    class Availability {

        @Test
        void validateWhenNotSetThenHealthyOrPanicOnlyWhenNothingIsUsable() {
            assertThat(validate().availability())
                    .isEqualTo(new AvailabilitySettings(AvailabilityPolicy.HEALTHY_OR_PANIC, 0))
                    .isEqualTo(AvailabilitySettings.DEFAULT);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"0", "50", "100"})
        void validateWhenPanicThresholdInRangeThenKept(int percent) {
            set("availability.panic-threshold=" + percent);
            assertThat(validate().availability())
                    .isEqualTo(new AvailabilitySettings(AvailabilityPolicy.HEALTHY_OR_PANIC, percent));
        }

        @Test
        void validateWhenHealthyAndUnknownThenThatPolicy() {
            set("availability.policy=healthy-and-unknown");
            assertThat(validate().availability().policy()).isEqualTo(AvailabilityPolicy.HEALTHY_AND_UNKNOWN);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
                "availability.policy=healthy-only      | observatory.availability.policy: healthy-only "
                        + "(expected: one of healthy-or-panic, healthy-and-unknown)",
                "availability.policy=                  | observatory.availability.policy: (empty) "
                        + "(expected: one of healthy-or-panic, healthy-and-unknown)",
                "availability.panic-threshold=101      | observatory.availability.panic-threshold: 101 "
                        + "(expected: 0-100)",
                "availability.panic-threshold=-1       | observatory.availability.panic-threshold: -1 "
                        + "(expected: 0-100)",
                "availability.policy=healthy-and-unknown; availability.panic-threshold=50 | "
                        + "observatory.availability.panic-threshold: 50 "
                        + "(expected: only with observatory.availability.policy healthy-or-panic)"})
        void validateWhenAvailabilityValueBadThenOneLineNamesFullProperty(String assignments, String message) {
            set(assignments);
            assertInvalid(message);
        }
    }

    @Nested
    class ApiAuth {

        private static final String TOKEN = "s3cr3t-t0ken";

        @TempDir
        Path directory;

        private void assertInvalidWithoutToken(String message) {
            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .isInstanceOf(InvalidConfigException.class)
                    .hasMessage(message)
                    .message().doesNotContain(TOKEN);
        }

        @Test
        void validateWhenNotSetThenNoTokenAndReadsOpen() {
            assertThat(validate().apiAuth()).isEqualTo(ApiAuthSettings.DEFAULT)
                    .isEqualTo(new ApiAuthSettings(Optional.empty(), Optional.empty(), false));
        }

        @Test
        void validateWhenTokenFileHoldsTokenThenPathKeptAndTokenNot() throws IOException {
            Path file = Files.writeString(directory.resolve("api-token"), TOKEN + "\n");
            set("api.auth.token-file=" + file + "; api.auth.require-for-reads=true");

            ApiAuthSettings auth = validate().apiAuth();

            assertThat(auth).isEqualTo(new ApiAuthSettings(Optional.of(file), Optional.empty(), true));
            assertThat(validate().toString()).doesNotContain(TOKEN);
        }

        @Test
        void validateWhenTokenEnvSetThenNameKeptAndTokenNot() {
            environment.put("OBSERVATORY_API_TOKEN", TOKEN);
            set("api.auth.token-env=OBSERVATORY_API_TOKEN");

            ApiAuthSettings auth = validate().apiAuth();

            assertThat(auth).isEqualTo(new ApiAuthSettings(Optional.empty(), Optional.of("OBSERVATORY_API_TOKEN"),
                    false));
            assertThat(validate().toString()).doesNotContain(TOKEN);
        }

        @Test
        void validateWhenTokenKeysBlankThenUnset() {
            set("api.auth.token-file= ; api.auth.token-env=");
            assertThat(validate().apiAuth()).isEqualTo(ApiAuthSettings.DEFAULT);
        }

        @Test
        void validateWhenBothTokenKeysSetThenOneLineNamesBoth() throws IOException {
            Path file = Files.writeString(directory.resolve("api-token"), TOKEN);
            environment.put("OBSERVATORY_API_TOKEN", TOKEN);
            set("api.auth.token-file=" + file + "; api.auth.token-env=OBSERVATORY_API_TOKEN");

            assertInvalidWithoutToken("observatory.api.auth.token-env: set together with "
                    + "observatory.api.auth.token-file (expected: at most one token source: remove "
                    + "observatory.api.auth.token-file or observatory.api.auth.token-env)");
        }

        @Test
        void validateWhenTokenFileMissingThenOneLineNamesPath() {
            Path missing = directory.resolve("missing-token");
            set("api.auth.token-file=" + missing);

            assertInvalidWithoutToken("observatory.api.auth.token-file: " + missing
                    + " (expected: the path of an existing file holding the API token)");
        }

        @Test
        void validateWhenTokenFileIsDirectoryThenOneLineNamesPath() {
            set("api.auth.token-file=" + directory);

            assertInvalidWithoutToken("observatory.api.auth.token-file: " + directory
                    + " (expected: the path of an existing file holding the API token)");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"", " ", "\n", " \t\r\n\u2003"})
        void validateWhenTokenFileEmptyOrWhitespaceThenOneLineSaysEmpty(String content) throws IOException {
            Path file = Files.writeString(directory.resolve("api-token"), content);
            set("api.auth.token-file=" + file);

            assertInvalidWithoutToken("observatory.api.auth.token-file: " + file
                    + " (expected: a file holding the API token; the file is empty)");
        }

        @Test
        void validateWhenTokenFileUnreadableThenOneLineNamesPathNotToken() throws IOException {
            Path file = Files.writeString(directory.resolve("api-token"), TOKEN);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
            assumeFalse(Files.isReadable(file), "this user reads files whatever their permissions (root)");
            set("api.auth.token-file=" + file);

            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .hasMessage("observatory.api.auth.token-file: " + file
                            + " (expected: a token file this process may read)")
                    .cause().hasMessageNotContaining(TOKEN);
        }

        @Test
        void validateWhenTokenEnvUnsetThenOneLineNamesVariable() {
            set("api.auth.token-env=OBSERVATORY_API_TOKEN");

            assertInvalidWithoutToken("observatory.api.auth.token-env: OBSERVATORY_API_TOKEN "
                    + "(expected: the name of an environment variable holding the API token; it is not set)");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"", "  ", "\n"})
        void validateWhenTokenEnvBlankThenOneLineNamesVariable(String value) {
            environment.put("OBSERVATORY_API_TOKEN", value);
            set("api.auth.token-env=OBSERVATORY_API_TOKEN");

            assertInvalidWithoutToken("observatory.api.auth.token-env: OBSERVATORY_API_TOKEN "
                    + "(expected: the name of an environment variable holding the API token; it is empty)");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {TOKEN, "eyJhbGciOiJIUzI1NiJ9.e30.sig", "1TOKEN", "API-TOKEN", "abc+/=="})
        void validateWhenTokenEnvIsNoVariableNameThenOneLineWithValueMasked(String value) {
            environment.put(value, "x");
            set("api.auth.token-env=" + value);

            assertThatThrownBy(ObservatoryConfigValidatorTest.this::validate)
                    .hasMessage("observatory.api.auth.token-env: ****** (expected: the name of an environment "
                            + "variable: letters, digits and '_', not starting with a digit)")
                    .message().doesNotContain(value);
        }
    }
}
