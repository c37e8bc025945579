package io.observatory.config;

import io.observatory.health.ActiveCheck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.config.ObservatoryProperties.BurstProperties;
import io.observatory.config.ObservatoryProperties.OutboundProperties;
import io.observatory.config.ObservatoryProperties.PingConfigProperties;
import io.observatory.config.ObservatoryProperties.StandardProperties;
import io.observatory.testing.TestTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ObservatoryConfigValidatorTest {

    private static final String EXPECTED_URL =
            "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)";

    private final ObservatoryProperties properties = new ObservatoryProperties();
    private final List<String> warnings = new ArrayList<>();

    private ObservatoryConfig validate() {
        return ObservatoryConfigValidator.validate(properties, warnings::add);
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
}
