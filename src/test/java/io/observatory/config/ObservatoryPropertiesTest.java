package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.observatory.config.ObservatoryProperties.PingConfigProperties;
import io.observatory.config.ObservatoryProperties.ProbeProperties;
import io.observatory.config.ObservatoryProperties.StandardProperties;
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
        // The metadata next to the main classes: the test classes have their own, for their test properties.
        Path classes = Path.of(ObservatoryProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        DocumentContext metadata;
        try (InputStream json = Files.newInputStream(classes.resolve("META-INF/spring-configuration-metadata.json"))) {
            metadata = JsonPath.parse(json);
        }
        String interval = "$.properties[?(@.name == 'observatory.burst.ping-config.interval')]";

        assertThat(metadata.<List<String>>read(interval + ".type")).containsExactly("java.time.Duration");
        assertThat(metadata.<List<String>>read(interval + ".defaultValue")).containsExactly("1m");
        assertThat(metadata.<List<String>>read(interval + ".description")).singleElement().asString()
                .contains("values below 10s are raised to 10s", "Default: 1m.");
        assertThat(metadata.<List<Integer>>read(
                "$.properties[?(@.name == 'observatory.probe.max-concurrent')].defaultValue")).containsExactly(1024);
    }
}
