package io.observatory.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** The check shared by properties that name a file the service reads (trusted certificates, the API token). */
public final class ReadableFiles {

    private ReadableFiles() {}

    /**
     * Returns the path of an existing regular file (links followed), or reports {@code property} and returns
     * {@code null}.
     *
     * @param what the kind of file, e.g. {@code PEM file}: the report expects {@code the path of a PEM file} (the
     *             location is no path) or {@code the path of an existing PEM file} (no such file, or a directory)
     */
    public static @Nullable Path regularFile(Problems problems, String property, String location, String what) {
        Path path;
        try {
            path = Path.of(location);
        } catch (InvalidPathException e) {
            problems.reject(property, "the path of a " + what);
            return null;
        }
        if (!Files.isRegularFile(path)) {
            problems.reject(property, "the path of an existing " + what);
            return null;
        }
        return path;
    }
}
