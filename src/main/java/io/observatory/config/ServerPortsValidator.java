package io.observatory.config;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementServerProperties;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerProperties;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Checks the listening ports of the service's two servers when Spring Boot binds their settings
 * ({@code spring.grpc.server.port}, {@code server.port}, {@code management.server.port}), so that a port outside
 * 0-65535 stops start-up with one line ({@link ConfigFailureAnalyzer}) before anything listens or probes; left to the
 * servers, it fails as a stack trace once they start. {@code -1} keeps Spring Boot's meaning for the HTTP ports: no
 * HTTP server, no management endpoints over HTTP. Registered as Spring Boot's {@code configurationPropertiesValidator},
 * which it applies to every configuration properties class it binds.
 */
final class ServerPortsValidator implements Validator {

    /** The port of each checked settings class, and whether {@code -1} (off) is allowed. */
    private static final Map<Class<?>, Port> PORTS = Map.of(
            GrpcServerProperties.class,
            new Port(settings -> ((GrpcServerProperties) settings).getPort(), false),
            ServerProperties.class,
            new Port(settings -> ((ServerProperties) settings).getPort(), true),
            ManagementServerProperties.class,
            new Port(settings -> ((ManagementServerProperties) settings).getPort(), true));

    @Override
    public boolean supports(Class<?> type) {
        return PORTS.containsKey(type);
    }

    @Override
    public void validate(Object target, Errors errors) {
        Port port = Objects.requireNonNull(PORTS.get(target.getClass()), "supports() said so");
        Integer value = port.of().apply(target);
        if (value != null && (value < (port.offAllowed() ? -1 : 0) || value > 65_535)) {
            errors.rejectValue(
                    "port",
                    "range",
                    port.offAllowed()
                            ? "0-65535, or -1 for no HTTP server; 0 picks a free port"
                            : "0-65535; 0 picks a free port");
        }
    }

    private record Port(Function<Object, @Nullable Integer> of, boolean offAllowed) {}
}
