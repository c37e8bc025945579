package io.observatory.reload;

import io.observatory.config.InvalidConfigException;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.text.InvalidValueException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ResourceLoader;

/**
 * Loads the configuration as start-up did, into a fresh environment (as Spring Cloud's context refresher does): every
 * property source of the running process (command line, {@code SPRING_APPLICATION_JSON}, system properties,
 * environment variables, default properties and whatever libraries or tests added) but the configuration files,
 * which Spring Boot's own config-data processing loads anew with the active profiles; then binds and validates it
 * with the same {@link ObservatoryConfigBinder}. The files are recognised by type: Spring Boot loads them as
 * {@link OriginTrackedMapPropertySource}s.
 */
final class ConfigLoader {

    /**
     * Settings the files may hold but only a start applies: the servers' ports and addresses, and those the sections
     * declare ({@link io.observatory.config.ConfigSection#startUpOnly}, e.g. warm restart's). A reload that changes one
     * says so rather than ignore it silently.
     */
    /** The property naming the port the gRPC server bound. */
    static final String LOCAL_GRPC_PORT = "local.grpc.server.port";

    static final List<String> START_UP_ONLY = List.of(
            "server.port",
            "server.address",
            "management.server.port",
            "management.server.address",
            "spring.grpc.server.port",
            "spring.grpc.server.address");

    /**
     * Where the running process says which port it bound for each port setting: Spring Boot's own
     * {@code local.server.port} and {@code local.management.port}, and {@value #LOCAL_GRPC_PORT}, which
     * {@link ReloadConfiguration} adds when the gRPC server starts. A setting of 0 bound a free port, which is what
     * stays in force.
     */
    private static final Map<String, String> BOUND_PORTS = Map.of(
            "server.port", "local.server.port",
            "management.server.port", "local.management.port",
            "spring.grpc.server.port", LOCAL_GRPC_PORT);

    private final ConfigurableEnvironment running;
    private final List<Path> files;
    private final ObservatoryConfigBinder binder;
    private final ResourceLoader resources;

    /**
     * @param running the environment the service started with
     * @param files   the watched files, checked to be there and not empty before loading
     * @param binder  the binder of start-up
     */
    ConfigLoader(
            ConfigurableEnvironment running,
            List<Path> files,
            ObservatoryConfigBinder binder,
            ResourceLoader resources) {
        this.running = running;
        this.files = List.copyOf(files);
        this.binder = binder;
        this.resources = resources;
    }

    /**
     * Loads, binds and validates the current configuration.
     *
     * @throws RejectedConfigException with one line saying what is wrong: a file, or the property, value and
     *                                 expectation
     */
    ObservatoryConfigBinder.Bound load() {
        files.forEach(ConfigLoader::check);
        ConfigurableEnvironment fresh = freshEnvironment();
        ObservatoryConfigBinder.Bound bound;
        try {
            bound = binder.bindReload(fresh);
        } catch (InvalidConfigException e) {
            throw new RejectedConfigException(String.valueOf(e.getMessage()), e);
        }
        List<String> warnings = new ArrayList<>(bound.warnings());
        List<String> startUpOnly = new ArrayList<>(START_UP_ONLY);
        startUpOnly.addAll(binder.startUpOnly());
        for (String property : startUpOnly) {
            String now = running.getProperty(property);
            String next = fresh.getProperty(property);
            if (!Objects.equals(now, next)) {
                warnings.add(property + ": " + printable(next) + " takes effect at the next start; "
                        + inForce(property, now) + " stays in force");
            }
        }
        return new ObservatoryConfigBinder.Bound(bound.config(), warnings);
    }

    /** What the running process uses for {@code property}, set to {@code now}: the port it bound, for a port. */
    private String inForce(String property, @Nullable String now) {
        String local = BOUND_PORTS.get(property);
        String bound = local == null ? null : running.getProperty(local);
        if (bound == null || bound.equals(now)) {
            return printable(now);
        }
        return bound + " (the port bound for " + printable(now) + ")";
    }

    private static String printable(@Nullable String value) {
        return value == null ? "(unset)" : InvalidValueException.printable(value);
    }

    private ConfigurableEnvironment freshEnvironment() {
        StandardEnvironment fresh = new StandardEnvironment();
        MutablePropertySources sources = fresh.getPropertySources();
        sources.forEach(source -> sources.remove(source.getName()));
        for (PropertySource<?> source : running.getPropertySources()) {
            if (!(source instanceof OriginTrackedMapPropertySource)
                    && !ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
                sources.addLast(source);
            }
        }
        try {
            ConfigDataEnvironmentPostProcessor.applyTo(fresh, resources, null, List.of(running.getActiveProfiles()));
        } catch (RuntimeException e) {
            throw new RejectedConfigException("cannot be read as configuration: " + oneLine(e), e);
        }
        return fresh;
    }

    /** Rejects a watched file that is gone or empty: an empty file is taken for a truncated write. */
    private static void check(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new RejectedConfigException(file + ": missing or not a regular file", null);
        }
        try {
            if (Files.readString(file).isBlank()) {
                throw new RejectedConfigException(
                        file + ": empty; an empty configuration file is taken for a "
                                + "truncated write (a file that sets nothing holds e.g. \"observatory: {}\")",
                        null);
            }
        } catch (IOException e) {
            throw new RejectedConfigException(file + ": cannot be read: " + oneLine(e), e);
        }
    }

    private static String oneLine(Throwable e) {
        StringBuilder line = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            line.append("; caused by: ").append(cause.getMessage());
        }
        return line.toString().replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
