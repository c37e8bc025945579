package io.observatory.mesh.protocol;

import java.util.Objects;

/**
 * A witness's consecutive failed or successful probes of one entry point, and its last probe of it.
 *
 * @param server     the server
 * @param entryPoint the entry point's name
 * @param failures   at least 0; one success resets it
 * @param successes  at least 0; one failure resets it
 * @param last       the last probe
 */
public record PathStreak(String server, String entryPoint, int failures, int successes, LastProbe last) {

    /**
     * The successes of a streak read from a report or a state file: as given, except that a probed path with neither
     * failures nor successes comes from a witness (or a file) that predates the field and reads as a long streak of
     * successes, so that no vote is held forever on its account.
     */
    public static int successesRead(int failures, int successes) {
        return failures == 0 && successes == 0 ? Integer.MAX_VALUE : successes;
    }

    public PathStreak {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(entryPoint, "entryPoint");
        Objects.requireNonNull(last, "last");
        if (failures < 0) {
            throw new IllegalArgumentException("failures: " + failures + " (expected: >= 0)");
        }
        if (successes < 0) {
            throw new IllegalArgumentException("successes: " + successes + " (expected: >= 0)");
        }
    }
}
