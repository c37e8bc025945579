package io.observatory.mesh.judge;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the witnesses said last: the newest self-report of each witness and, per witness and entry point, how many of
 * its latest probes failed and succeeded in a row; and which of those paths the previous judgement held as votes.
 * Sized 1 self-report per witness and 1 streak (and at most 1 held vote) per (witness, entry point): 10,000 streaks
 * for 100 witnesses and 100 single-entry servers.
 *
 * @param selfReports the latest self-report of each witness that sent one
 * @param streaks     the current streak of each (witness, entry point) the witness probed
 * @param held        the votes of the previous judgement ({@link MeshJudgement#votes}): a vote ends only with a
 *                    streak of successes, so one lucky probe does not bring a server back
 */
public record MeshEvidence(List<SelfReport> selfReports, List<Streak> streaks, Set<Path> held) {

    /** Evidence with no vote held: the first judgement, or one that ignores the previous. */
    public MeshEvidence(List<SelfReport> selfReports, List<Streak> streaks) {
        this(selfReports, streaks, Set.of());
    }

    /**
     * A witness's path to one entry point.
     *
     * @param witness    the witness
     * @param server     the server
     * @param entryPoint the server's entry point
     */
    public record Path(String witness, String server, String entryPoint) {

        public Path {
            Objects.requireNonNull(witness, "witness");
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(entryPoint, "entryPoint");
        }
    }

    /** This evidence with {@code held} as the previous judgement's votes. */
    public MeshEvidence holding(Set<Path> votes) {
        return new MeshEvidence(selfReports, streaks, votes);
    }

    /**
     * A witness's latest account of its own server.
     *
     * @param witness          the witness that sent it
     * @param receivedAtNanos  when the hub received it, on the hub's monotonic ticker
     * @param failingCheck     the first local check that fails, e.g. {@code tcp :443}; {@code null} when all pass
     */
    public record SelfReport(
            String witness, long receivedAtNanos, @Nullable String failingCheck) {

        public SelfReport {
            Objects.requireNonNull(witness, "witness");
        }
    }

    /**
     * Witness {@code witness} probing entry point {@code entryPoint} of {@code server}: its latest probes that failed
     * in a row, or succeeded in a row (one of the two is 0 once it probed).
     *
     * @param failures        consecutive failed probes, at least 0; a success resets it
     * @param successes       consecutive successful probes, at least 0; a failure resets it
     * @param receivedAtNanos when the hub received the report that carried it, on the hub's monotonic ticker: a
     *                        streak older than {@code no-data-after} is no evidence any more
     */
    public record Streak(
            String witness, String server, String entryPoint, int failures, int successes, long receivedAtNanos) {

        public Streak {
            Objects.requireNonNull(witness, "witness");
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(entryPoint, "entryPoint");
            if (failures < 0) {
                throw new IllegalArgumentException("failures: " + failures + " (expected: >= 0)");
            }
            if (successes < 0) {
                throw new IllegalArgumentException("successes: " + successes + " (expected: >= 0)");
            }
        }

        /** The path this streak is of. */
        public Path path() {
            return new Path(witness, server, entryPoint);
        }
    }

    public MeshEvidence {
        selfReports = List.copyOf(selfReports);
        streaks = List.copyOf(streaks);
        held = Set.copyOf(held);
    }
}
