package io.observatory.mesh.protocol;

import java.util.Objects;

/**
 * A witness's consecutive failed probes of one entry point, and its last probe of it.
 *
 * @param server     the server
 * @param entryPoint the entry point's name
 * @param failures   at least 0; one success resets it
 * @param last       the last probe
 */
public record PathStreak(String server, String entryPoint, int failures, LastProbe last) {

    public PathStreak {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(entryPoint, "entryPoint");
        Objects.requireNonNull(last, "last");
        if (failures < 0) {
            throw new IllegalArgumentException("failures: " + failures + " (expected: >= 0)");
        }
    }
}
