package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The IDE metadata Spring Boot's configuration processor writes from the records' Javadoc and defaults. */
class ConfigMetadataTest {

    @Test
    void metadataWhenGeneratedThenIdeShowsTypeDescriptionAndDefault() throws IOException, URISyntaxException {
        DocumentContext metadata = metadata();
        String interval = "$.properties[?(@.name == 'observatory.burst.ping-config.interval')]";

        assertThat(metadata.<List<String>>read(interval + ".type")).containsExactly("java.time.Duration");
        assertThat(metadata.<List<String>>read(interval + ".defaultValue")).containsExactly("1m0s");
        assertThat(metadata.<List<String>>read(interval + ".description"))
                .singleElement()
                .asString()
                .contains("values below 10s are raised to 10s", "Default: 1m");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "observatory.standard.expected-status, any",
        "observatory.standard.healthy-threshold, 1",
        "observatory.burst.unhealthy-threshold, 1",
        "observatory.probe.max-concurrent, 1024",
        "observatory.passive.consecutive-failures.threshold, 3",
        "observatory.passive.transport-failure-rate.detection-window, 60s",
        "observatory.passive.transport-failure-rate.minimal-total-count, 10",
        "observatory.passive.transport-failure-rate.failure-rate-limit, 0.3",
        "observatory.passive.transport-failure-rate.reactivation-period, 60s",
        "observatory.availability.healthy-or-panic.panic-threshold, 0",
        "observatory.api.auth.require-for-reads, false",
        "observatory.reload.interval, 5s"
    })
    void metadataWhenPropertyHasDefaultThenIdeShowsTheBoundDefault(String property, String expected)
            throws IOException, URISyntaxException {
        List<Object> values = metadata().read("$.properties[?(@.name == '" + property + "')].defaultValue");

        assertThat(values).singleElement().asString().isEqualTo(expected);
    }

    @Test
    void metadataWhenPolicySectionsThenEachKeyIsDescribed() throws IOException, URISyntaxException {
        List<String> description = metadata()
                .read("$.properties[?(@.name == "
                        + "'observatory.passive.transport-failure-rate.reactivation-period')].description");

        assertThat(description)
                .singleElement()
                .asString()
                .contains("never shorter than the detection window", "Default: 60s");
    }

    /** The metadata next to the main classes: the test classes have their own, for their test properties. */
    private static DocumentContext metadata() throws IOException, URISyntaxException {
        Path classes = Path.of(ObservatoryConfig.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        try (InputStream json = Files.newInputStream(classes.resolve("META-INF/spring-configuration-metadata.json"))) {
            return JsonPath.parse(json);
        }
    }
}
