package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.text.GoDuration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;

class PropertyExpectationsTest {

    @Test
    void expectedWhenSectionsThenKeysInDeclarationOrder() {
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(BurstObserverSettings.class)))
                .isEqualTo("a section with subject-selector, ping-config, expected-status, healthy-threshold, "
                        + "unhealthy-threshold, max-failure-ratio");
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(PingConfig.class)))
                .isEqualTo("a section with destination, connectivity, interval, sampling, timeout, http-method");
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(ProbeSettings.class)))
                .isEqualTo("a section with max-concurrent, trusted-certificates, headers, source-address");
    }

    @Test
    void expectedWhenValueTypesThenWhatUsersWrite() {
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(Duration.class)))
                .isEqualTo(GoDuration.EXPECTED);
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(int.class)))
                .isEqualTo("a whole number");
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(boolean.class)))
                .isEqualTo("true or false");
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(Double.class)))
                .isEqualTo("a decimal number, e.g. 0.3");
        assertThat(PropertyExpectations.expected(ResolvableType.forClass(Protocol.class)))
                .isEqualTo("one of direct, http, socks, tcp, tls, xray");
        assertThat(PropertyExpectations.expected(ResolvableType.forClassWithGenerics(List.class, String.class)))
                .isEqualTo("a list of values");
        assertThat(PropertyExpectations.expected(
                        ResolvableType.forClassWithGenerics(Map.class, String.class, String.class)))
                .isEqualTo("a map of names to values");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "observatory.burst.ping-config.samples | 5 | observatory.burst.ping-config.samples: 5 (expected: a known "
                        + "property of observatory.burst.ping-config: destination, connectivity, interval, sampling, "
                        + "timeout, http-method)",
                "observatory.outbounds[2].secret | x | observatory.outbounds[2].secret: ****** (expected: a known "
                        + "property of observatory.outbounds[2]: tag, protocol, address, port, username, password, "
                        + "probe-url, sni, alpn, allow-insecure, endpoint)",
                "observatory.standard.probe-interval.x | 1 | observatory.standard.probe-interval.x: 1 (expected: no such "
                        + "property; check the spelling)",
                "observatory.availability.healthy-and-unknown.x | 1 | observatory.availability.healthy-and-unknown.x: 1 "
                        + "(expected: no property: observatory.availability.healthy-and-unknown is an empty section ({}))",
                "observatory.outbound[0].protocol | direct | observatory.outbound: (a list) (expected: a known property of "
                        + "observatory: outbounds, standard, burst, probe, reload, passive, availability, api, metrics, mesh, state)",
                "observatory.standard.ping-config.interval | 5s | observatory.standard.ping-config: (a nested map) "
                        + "(expected: a known property of observatory.standard: "
                        + ConfigFailureAnalyzerTest.STANDARD_KEYS + ")"
            })
    void unboundWhenPropertyThenOneLine(String name, String value, String line) {
        ConfigurationProperty property = new ConfigurationProperty(ConfigurationPropertyName.of(name), value, null);

        assertThat(new PropertyExpectations(
                                ConfigurationPropertyName.of("observatory"),
                                CoreSettings.class,
                                List.of("mesh", "state"))
                        .unbound(property)
                        .describe())
                .isEqualTo(line);
    }
}
