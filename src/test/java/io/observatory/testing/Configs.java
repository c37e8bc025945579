package io.observatory.testing;

import io.observatory.config.ConfigSection;
import io.observatory.config.InvalidConfigException;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.config.StandardObserverSettings;
import io.observatory.haproxy.HaproxyAgentSettings;
import io.observatory.health.ExpectedStatus;
import io.observatory.incident.IncidentSettings;
import io.observatory.incident.notify.NotificationSettings;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.state.StateSettings;
import io.observatory.xds.XdsSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;

/**
 * Test configurations bound through the service's own pipeline ({@link ObservatoryConfigBinder}), as start-up and
 * reload bind them: properties are given as {@code key=value} with keys below {@code observatory.}, as a user writes
 * them ({@code outbounds[0].tag=proxy_de}), or as a YAML document named {@code test.yml}.
 */
public final class Configs {

    /** The capabilities' sections, as the running service registers them. */
    public static final List<ConfigSection<?>> SECTIONS = List.of(
            MeshSettings.SECTION,
            StateSettings.SECTION,
            IncidentSettings.SECTION,
            NotificationSettings.SECTION,
            XdsSettings.SECTION,
            HaproxyAgentSettings.SECTION);

    private static final ObservatoryConfigBinder BINDER = new ObservatoryConfigBinder(SECTIONS, name -> null);

    private Configs() {}

    /** Standard observer settings with Xray's schedule and 5 s deadline, the per-outbound options at their defaults. */
    public static StandardObserverSettings xrayStandard(
            List<String> subjectSelector,
            String probeUrl,
            Duration probeInterval,
            boolean enableConcurrency,
            ExpectedStatus expectedStatus,
            int healthyThreshold,
            int unhealthyThreshold) {
        return new StandardObserverSettings(
                subjectSelector,
                probeUrl,
                probeInterval,
                enableConcurrency,
                expectedStatus,
                healthyThreshold,
                unhealthyThreshold,
                StandardObserverSettings.Schedule.XRAY,
                Duration.ofSeconds(5),
                null,
                null,
                Duration.ZERO,
                null,
                null,
                null);
    }

    /** The configuration of {@code properties}; fails the test with the one-line report when it is invalid. */
    public static ObservatoryConfig of(String... properties) {
        return bound(properties).config();
    }

    /** The configuration of one direct outbound per tag, in order, and {@code properties}. */
    public static ObservatoryConfig direct(List<String> tags, String... properties) {
        String[] all = new String[tags.size() * 2 + properties.length];
        for (int i = 0; i < tags.size(); i++) {
            all[2 * i] = "outbounds[" + i + "].tag=" + tags.get(i);
            all[2 * i + 1] = "outbounds[" + i + "].protocol=direct";
        }
        System.arraycopy(properties, 0, all, tags.size() * 2, properties.length);
        return of(all);
    }

    /** The configuration of {@code properties} and its warnings; environment variables are all unset. */
    public static ObservatoryConfigBinder.Bound bound(String... properties) {
        return bind(BINDER, properties(properties));
    }

    /** The configuration of {@code properties} with {@code environmentVariables} visible to validation. */
    public static ObservatoryConfigBinder.Bound bound(Map<String, String> environmentVariables, String... properties) {
        try (ObservatoryConfigBinder binder = new ObservatoryConfigBinder(SECTIONS, environmentVariables::get)) {
            return bind(binder, properties(properties));
        }
    }

    /** The configuration of a YAML document. */
    public static ObservatoryConfig yaml(String document) {
        return bind(BINDER, yamlSource(document)).config();
    }

    /** The one-line report of invalid {@code properties}; fails the test when they bind. */
    public static String rejection(String... properties) {
        return rejection(BINDER, properties(properties));
    }

    /** The one-line report with {@code environmentVariables} visible to validation. */
    public static String rejection(Map<String, String> environmentVariables, String... properties) {
        try (ObservatoryConfigBinder binder = new ObservatoryConfigBinder(SECTIONS, environmentVariables::get)) {
            return rejection(binder, properties(properties));
        }
    }

    /** The one-line report of an invalid YAML document. */
    public static String yamlRejection(String document) {
        return rejection(BINDER, yamlSource(document));
    }

    private static ObservatoryConfigBinder.Bound bind(ObservatoryConfigBinder binder, PropertySource<?> source) {
        try {
            return binder.bind(environment(source));
        } catch (InvalidConfigException e) {
            throw new AssertionError("configuration rejected: " + e.getMessage(), e);
        }
    }

    private static String rejection(ObservatoryConfigBinder binder, PropertySource<?> source) {
        try {
            binder.bind(environment(source));
        } catch (InvalidConfigException e) {
            return e.getMessage();
        }
        throw new AssertionError("configuration bound, expected a rejection");
    }

    /** An environment of {@code source} alone: no environment variables or system properties. */
    private static StandardEnvironment environment(PropertySource<?> source) {
        StandardEnvironment environment = new StandardEnvironment();
        List.copyOf(environment.getPropertySources().stream()
                        .map(PropertySource::getName)
                        .toList())
                .forEach(environment.getPropertySources()::remove);
        environment.getPropertySources().addFirst(source);
        return environment;
    }

    private static PropertySource<?> properties(String... properties) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String property : properties) {
            int equals = property.indexOf('=');
            values.put(
                    ObservatoryConfigBinder.PREFIX + "." + property.substring(0, equals),
                    property.substring(equals + 1));
        }
        return new MapPropertySource("test", values);
    }

    private static PropertySource<?> yamlSource(String document) {
        try {
            return new YamlPropertySourceLoader()
                    .load("test.yml", new ByteArrayResource(document.getBytes(StandardCharsets.UTF_8), "test.yml"))
                    .get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
