package io.observatory.api;

import io.observatory.config.ConfigFailureAnalyzer;
import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Reports a gRPC server that cannot listen as one line naming the setting to change, like every other bad value:
 * {@code spring.grpc.server.port: 9090 (expected: a free port; 0.0.0.0:9090 is already in use)} when the port is
 * taken, {@code spring.grpc.server.address: 10.9.9.9 (expected: ...)} when the address is not this host's. Recognises
 * grpc-java's {@code Failed to bind to address} and the operating system's reason below it (EADDRINUSE,
 * EADDRNOTAVAIL); other start-up failures are left to Spring Boot. Registered in {@code META-INF/spring.factories}.
 */
public final class GrpcListenFailureAnalyzer extends AbstractFailureAnalyzer<IOException> implements Ordered {

    private static final ConfigurationPropertyName PORT = ConfigurationPropertyName.of("spring.grpc.server.port");
    private static final ConfigurationPropertyName ADDRESS = ConfigurationPropertyName.of("spring.grpc.server.address");

    private final Environment environment;

    /** @param environment the settings the server was started with; Spring Boot passes the application's */
    public GrpcListenFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, IOException cause) {
        String message = String.valueOf(cause.getMessage());
        if (!message.startsWith("Failed to bind to address ")) {
            return null;
        }
        String listening = message.substring(Math.max(message.lastIndexOf(' '), message.lastIndexOf('/')) + 1);
        String reason = deepestMessage(cause);
        if (reason.contains("Address already in use")) {
            return report(
                    PORT,
                    listening.substring(listening.lastIndexOf(':') + 1),
                    "a free port; " + listening + " is already in use",
                    cause);
        }
        if (reason.contains("Cannot assign requested address")) {
            return report(
                    ADDRESS,
                    "all interfaces",
                    "an address of one of this host's network interfaces, or unset for all of them",
                    cause);
        }
        return null;
    }

    /** Ahead of Spring Boot's analyzers, which would report the stack trace. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** @param unset what the server used when the property is not set */
    private FailureAnalysis report(ConfigurationPropertyName name, String unset, String expected, Throwable cause) {
        ConfigurationProperty property = null;
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            property = source.getConfigurationProperty(name);
            if (property != null) {
                break;
            }
        }
        String value = property == null ? unset : String.valueOf(property.getValue());
        return ConfigFailureAnalyzer.analysis(
                name.toString(), value, expected, property == null ? null : property.getOrigin(), cause);
    }

    private static String deepestMessage(Throwable error) {
        Throwable deepest = error;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        return Objects.requireNonNullElse(deepest.getMessage(), "");
    }
}
