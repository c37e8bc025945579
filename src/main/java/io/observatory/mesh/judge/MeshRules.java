package io.observatory.mesh.judge;

import java.time.Duration;

/**
 * The mesh's verdict settings ({@code observatory.mesh.*} on the hub).
 *
 * @param streak          consecutive failed probes of an entry point by one witness that make a vote, at least 1
 *                        (default 3)
 * @param quorum          distinct sites of reliable witnesses whose votes make a server unreachable, at least 1
 *                        (default 2)
 * @param unreliableShare share of the probed neighbours a witness votes against at which its votes are set aside,
 *                        above 0 and at most 1 (default 0.5)
 * @param noDataAfter     how long without a self-report a server has no data, positive (default 3 × report interval)
 */
public record MeshRules(int streak, int quorum, double unreliableShare, Duration noDataAfter) {

    /** The rules of a hub that sets none: streak 3, quorum 2, unreliable share 0.5, no data after 30 s. */
    public static final MeshRules DEFAULTS = new MeshRules(3, 2, 0.5, Duration.ofSeconds(30));

    /** @throws IllegalArgumentException naming the setting, its value and what is expected */
    public MeshRules {
        if (streak < 1) {
            throw new IllegalArgumentException("streak: " + streak + " (expected: >= 1)");
        }
        if (quorum < 1) {
            throw new IllegalArgumentException("quorum: " + quorum + " (expected: >= 1)");
        }
        if (!(unreliableShare > 0 && unreliableShare <= 1)) {
            throw new IllegalArgumentException("unreliable-share: " + unreliableShare + " (expected: > 0 and <= 1)");
        }
        if (noDataAfter.isNegative() || noDataAfter.isZero()) {
            throw new IllegalArgumentException("no-data-after: " + noDataAfter + " (expected: > 0)");
        }
    }
}
