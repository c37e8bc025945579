package io.observatory.reload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.core.env.Environment;

/**
 * Finds the external configuration files the service was started with: the file-system entries of
 * {@code spring.config.location} and {@code spring.config.additional-location} (how the Helm chart mounts its
 * ConfigMap). A directory entry stands for the {@code application.yml}, {@code .yaml} or {@code .properties} inside
 * it; {@code classpath:} entries are not watched (they cannot change while the process runs).
 */
final class ConfigFiles {

    private static final List<String> LOCATION_PROPERTIES =
            List.of("spring.config.location", "spring.config.additional-location");

    /** What separates the locations of one property, as Spring Boot reads them. */
    private static final Pattern LOCATION_SEPARATOR = Pattern.compile("[,;]");

    private static final List<String> DIRECTORY_FILES =
            List.of("application.yml", "application.yaml", "application.properties");

    private ConfigFiles() {}

    /** Returns the watched files, in the order Spring Boot was given them; empty when there are none. */
    static List<Path> of(Environment environment) {
        List<Path> files = new ArrayList<>();
        for (String property : LOCATION_PROPERTIES) {
            for (String entry : LOCATION_SEPARATOR.split(environment.getProperty(property, ""), -1)) {
                String location = entry.strip().replaceFirst("^(optional:)?(file:)?", "");
                if (location.isEmpty() || location.toLowerCase(Locale.ROOT).startsWith("classpath:")) {
                    continue;
                }
                Path path = Path.of(location);
                if (location.endsWith("/") || Files.isDirectory(path)) {
                    DIRECTORY_FILES.stream().map(path::resolve).forEach(files::add);
                } else {
                    files.add(path);
                }
            }
        }
        return List.copyOf(files);
    }
}
