package io.observatory.config;

import io.observatory.text.GoDuration;
import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.observatory.config.ObservatoryProperties.PingConfigProperties;
import io.observatory.config.ObservatoryProperties.ProbeProperties;
import io.observatory.config.ObservatoryProperties.StandardProperties;
import io.observatory.health.ActiveCheck;
import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.TransportFailureRatePolicy;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObservatoryPropertiesTest {

    @Test
    void newPropertiesWhenNothingSetThenNoObserverAndNoOutbounds() {
        ObservatoryProperties properties = new ObservatoryProperties();

        assertThat(properties.getStandard()).isNull();
        assertThat(properties.getBurst()).isNull();
        assertThat(properties.getOutbounds()).isEmpty();
    }

    @Test
    void defaultsWhenReadThenXrayDefaultsOfTheDomain() {
        StandardProperties standard = new StandardProperties();
        PingConfigProperties ping = new PingConfigProperties();
        ProbeProperties probe = new ProbeProperties();

        assertThat(standard.getProbeUrl()).isEqualTo(StandardObserverSettings.DEFAULT_PROBE_URL.toString());
        assertThat(standard.getProbeInterval()).isEqualTo(StandardObserverSettings.DEFAULT_PROBE_INTERVAL);
        assertThat(standard.isEnableConcurrency()).isFalse();
        assertThat(ping.getDestination()).isEqualTo(PingConfig.DEFAULT_DESTINATION.toString());
        assertThat(ping.getConnectivity()).isEmpty();
        assertThat(ping.getInterval()).isEqualTo(PingConfig.DEFAULT_INTERVAL);
        assertThat(ping.getSampling()).isEqualTo(PingConfig.DEFAULT_SAMPLING);
        assertThat(ping.getTimeout()).isEqualTo(PingConfig.DEFAULT_TIMEOUT);
        assertThat(ping.getHttpMethod()).isEqualTo(PingConfig.DEFAULT_HTTP_METHOD);
        assertThat(probe.getMaxConcurrent()).isEqualTo(ProbeSettings.DEFAULT_MAX_CONCURRENT);
        assertThat(probe.getTrustedCertificates()).isNull();
        assertThat(probe.getHeaders()).containsExactlyEntriesOf(ProbeSettings.DEFAULT_HEADERS);
    }

    @Test
    void metadataWhenGeneratedThenIdeShowsDescriptionAndDefault() throws IOException, URISyntaxException {
        DocumentContext metadata = metadata();
        String interval = "$.properties[?(@.name == 'observatory.burst.ping-config.interval')]";

        assertThat(metadata.<List<String>>read(interval + ".type")).containsExactly("java.time.Duration");
        assertThat(metadata.<List<String>>read(interval + ".defaultValue")).containsExactly("1m");
        assertThat(metadata.<List<String>>read(interval + ".description")).singleElement().asString()
                .contains("values below 10s are raised to 10s", "Default: 1m.");
        assertThat(metadata.<List<Integer>>read(
                "$.properties[?(@.name == 'observatory.probe.max-concurrent')].defaultValue")).containsExactly(1024);
    }

    @Test
    void metadataWhenHealthAndApiKeysThenDefaultsAreTheDomainDefaults() throws IOException, URISyntaxException {
        DocumentContext metadata = metadata();
        TransportFailureRatePolicy rate = TransportFailureRatePolicy.DEFAULT;
        ConsecutiveFailuresPolicy consecutive = ConsecutiveFailuresPolicy.DEFAULT;

        assertThat(defaultValue(metadata, "observatory.standard.expected-status")).isEqualTo("any");
        assertThat(defaultValue(metadata, "observatory.standard.healthy-threshold"))
                .isEqualTo(ActiveCheck.DEFAULT.thresholds().healthyThreshold());
        assertThat(defaultValue(metadata, "observatory.burst.unhealthy-threshold"))
                .isEqualTo(ActiveCheck.DEFAULT.thresholds().unhealthyThreshold());
        assertThat(defaultValue(metadata, "observatory.burst.max-failure-ratio")).isNull();
        assertThat(defaultValue(metadata, "observatory.passive.policy")).isEqualTo(rate.name());
        assertThat(defaultValue(metadata, "observatory.passive.ceiling")).isEqualTo(consecutive.ceiling());
        assertThat(GoDuration.parse((String) defaultValue(metadata, "observatory.passive.detection-window")))
                .isEqualTo(rate.detectionWindow());
        assertThat(defaultValue(metadata, "observatory.passive.minimal-total-count"))
                .isEqualTo(rate.minimalTotalCount());
        assertThat(defaultValue(metadata, "observatory.passive.failure-rate-limit"))
                .isEqualTo(rate.failureRateLimit());
        assertThat(GoDuration.parse((String) defaultValue(metadata, "observatory.passive.reactivation-period")))
                .isEqualTo(rate.reactivationPeriod())
                .isEqualTo(consecutive.reactivationPeriod());
        assertThat(defaultValue(metadata, "observatory.availability.policy")).isEqualTo("healthy-or-panic");
        assertThat(defaultValue(metadata, "observatory.availability.panic-threshold"))
                .isEqualTo(AvailabilitySettings.DEFAULT.panicThresholdPercent());
        assertThat(defaultValue(metadata, "observatory.api.auth.require-for-reads")).isEqualTo(false);
        assertThat(metadata.<List<String>>read(
                "$.properties[?(@.name == 'observatory.passive.reactivation-period')].description"))
                .singleElement().asString().contains("never shorter than the detection window", "Default: 60s.");
    }

    /** The metadata next to the main classes: the test classes have their own, for their test properties. */
    private static DocumentContext metadata() throws IOException, URISyntaxException {
        Path classes = Path.of(ObservatoryProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (InputStream json = Files.newInputStream(classes.resolve("META-INF/spring-configuration-metadata.json"))) {
            return JsonPath.parse(json);
        }
    }

    private static Object defaultValue(DocumentContext metadata, String property) {
        List<Object> values = metadata.read("$.properties[?(@.name == '" + property + "')].defaultValue");
        List<String> names = metadata.read("$.properties[?(@.name == '" + property + "')].name");
        assertThat(names).as("metadata of %s", property).hasSize(1);
        return values.isEmpty() ? null : values.get(0);
    }
}
