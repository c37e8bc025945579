package io.observatory.mesh.judge;

import java.time.Duration;

/**
 * The mesh's verdict settings ({@code observatory.mesh.hub.*}).
 *
 * @param streak          consecutive failed probes of an entry point by one witness that make a vote, and consecutive
 *                        successful ones that end it, at least 1 (default 3)
 * @param quorum          reliable witnesses whose votes make a server unreachable, at least 1 (default 2)
 * @param quorumSites     distinct sites those witnesses must also come from, at least 0; 0 turns the rule off
 *                        (default 0)
 * @param unreliableShare share of the probed neighbours a witness may fail alone (no other witness fails them) before
 *                        its votes are set aside, above 0 and at most 1 (default 0.5): it is unreliable above it
 * @param noDataAfter     how long without a self-report a server has no data, positive (default 3 × report interval)
 */
public record MeshRules(int streak, int quorum, int quorumSites, double unreliableShare, Duration noDataAfter) {

    /** The rules of a hub that sets none: streak 3, quorum 2, no site rule, unreliable share 0.5, no data after 30 s. */
    public static final MeshRules DEFAULTS = new MeshRules(3, 2, 0, 0.5, Duration.ofSeconds(30));

    /** @throws IllegalArgumentException naming the setting, its value and what is expected */
    public MeshRules {
        if (streak < 1) {
            throw new IllegalArgumentException("streak: " + streak + " (expected: >= 1)");
        }
        if (quorum < 1) {
            throw new IllegalArgumentException("quorum: " + quorum + " (expected: >= 1)");
        }
        if (quorumSites < 0) {
            throw new IllegalArgumentException("quorum-sites: " + quorumSites + " (expected: >= 0)");
        }
        if (!(unreliableShare > 0 && unreliableShare <= 1)) {
            throw new IllegalArgumentException("unreliable-share: " + unreliableShare + " (expected: > 0 and <= 1)");
        }
        if (noDataAfter.isNegative() || noDataAfter.isZero()) {
            throw new IllegalArgumentException("no-data-after: " + noDataAfter + " (expected: > 0)");
        }
    }
}
