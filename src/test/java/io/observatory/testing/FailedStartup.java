package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.observatory.ObservatoryApplication;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * Starts the whole service as {@code java -jar} does, with both servers on loopback and free ports unless the
 * arguments say otherwise, and one direct outbound probed at a closed loopback port; the start is expected to fail.
 */
public final class FailedStartup {

    /** Logged when the observer starts its first round: absent when start-up failed before any probe. */
    public static final String OBSERVER_STARTED = "standard observer started";

    private FailedStartup() {}

    /** Runs the service with {@code args} ({@code --name=value}, replacing the defaults above); it must not start. */
    public static void run(String... args) {
        Map<String, String> properties = new LinkedHashMap<>(Map.of(
                "server.address",
                "127.0.0.1",
                "server.port",
                "0",
                "spring.grpc.server.address",
                "127.0.0.1",
                "spring.grpc.server.port",
                "0",
                "observatory.outbounds[0].tag",
                "proxy_a",
                "observatory.outbounds[0].protocol",
                "direct",
                "observatory.standard.subject-selector",
                "proxy_",
                "observatory.standard.probe-url",
                "http://127.0.0.1:1/generate_204"));
        for (String arg : args) {
            String[] nameAndValue = arg.substring("--".length()).split("=", 2);
            properties.put(nameAndValue[0], nameAndValue[1]);
        }
        String[] commandLine = properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue())
                .toArray(String[]::new);
        SpringApplicationBuilder application = new SpringApplicationBuilder(ObservatoryApplication.class)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false);
        assertThatThrownBy(() -> application.run(commandLine)).isInstanceOf(RuntimeException.class);
    }

    /** The part of Spring Boot's "APPLICATION FAILED TO START" report a user reads. */
    public static String report(String description, String action) {
        return String.format("Description:%n%n%s%n%nAction:%n%n%s%n", description, action);
    }
}
