package io.observatory.incident.notify;

import io.observatory.config.Problems;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** The checks the notification settings share. */
final class SettingsChecks {

    static final String TIMEOUT_EXPECTED = "a duration from 1s up to 5m0s";

    private SettingsChecks() {}

    /** Whether {@code text} is an http or https URL with a host. */
    static boolean httpUrl(String text) {
        try {
            URI uri = new URI(text);
            return ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** At start-up, rejects {@code file} unless this process may read it. */
    static void readable(Problems problems, String property, String file) {
        if (!problems.startUp()) {
            return;
        }
        try {
            if (!Files.isReadable(Path.of(file))) {
                problems.reject(property, file, "a file this process may read");
            }
        } catch (InvalidPathException e) {
            problems.reject(property, file, "the path of a file");
        }
    }
}
