package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.config.ObservatoryProperties.BurstProperties;
import io.observatory.config.ObservatoryProperties.OutboundProperties;
import io.observatory.config.ObservatoryProperties.PingConfigProperties;
import io.observatory.config.ObservatoryProperties.StandardProperties;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObservatoryConfigValidatorTest {

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
            assertInvalid("observatory.outbounds[0].tag: \"\" (expected: a non-blank tag)");
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
        void validateWhenProxyWithoutAddressThenError() {
            addOutbound("proxy_de", Protocol.SOCKS, null, 1080);
            assertInvalid("observatory.outbounds[0].address: (none) (expected: the proxy's host name or IP address)");
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
        void validateWhenPasswordWithoutUsernameThenErrorDoesNotPrintPassword() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080).setPassword("s3cret");
            assertInvalid("observatory.outbounds[0].username: (none) "
                    + "(expected: a username, since observatory.outbounds[0].password is set)");
        }

        @Test
        void validateWhenProbeUrlNotHttpThenError() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080).setProbeUrl("ftp://10.0.0.1/health");
            assertInvalid("observatory.outbounds[0].probe-url: ftp://10.0.0.1/health "
                    + "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)");
        }
    }

    @Nested
    class Standard {

        @Test
        void validateWhenOnlySelectorSetThenXrayDefaults() {
            addOutbound("proxy_de", Protocol.SOCKS, "10.0.0.5", 1080);
            standard("proxy_");

            assertThat(validate().standard()).contains(new StandardObserverSettings(List.of("proxy_"),
                    URI.create("https://www.google.com/generate_204"), Duration.ofSeconds(10), false));
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
            assertInvalid("observatory.standard.subject-selector[1]: \"\" (expected: a non-blank tag prefix)");
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
                    + "(expected: a positive duration, or 0 for the default 1m0s)");
        }

        @Test
        void validateWhenTimeoutNegativeThenError() {
            burst().setTimeout(Duration.ofMillis(-300));
            assertInvalid("observatory.burst.ping-config.timeout: -300ms "
                    + "(expected: a positive duration, or 0 for the default 5s)");
        }

        @Test
        void validateWhenSamplingNegativeThenError() {
            burst().setSampling(-1);
            assertInvalid("observatory.burst.ping-config.sampling: -1 "
                    + "(expected: a positive number of samples, or 0 for the default 10)");
        }

        @Test
        void validateWhenHttpMethodPaddedThenTrimmed() {
            burst().setHttpMethod(" GET ");
            assertThat(validate().burst().orElseThrow().pingConfig().httpMethod()).isEqualTo("GET");
        }

        @Test
        void validateWhenHttpMethodEmptyThenError() {
            burst().setHttpMethod("");
            assertInvalid("observatory.burst.ping-config.http-method: \"\" (expected: an HTTP method such as HEAD or GET)");
        }

        @Test
        void validateWhenDestinationHasNoHostThenError() {
            burst().setDestination("http://");
            assertInvalid("observatory.burst.ping-config.destination: http:// "
                    + "(expected: an absolute http or https URL with a host, e.g. https://example.com/generate_204)");
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
        void validateWhenTrustedCertificatesExistThenPath() throws IOException {
            Path pem = Files.writeString(directory.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
            properties.getProbe().setTrustedCertificates(pem.toString());

            assertThat(validate().probe().trustedCertificates()).isEqualTo(pem);
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
