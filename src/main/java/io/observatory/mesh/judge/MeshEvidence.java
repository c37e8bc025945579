package io.observatory.mesh.judge;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the witnesses said last: the newest self-report of each witness and, per witness and entry point, how many of
 * its latest probes failed in a row. Sized 1 self-report per witness and 1 streak per (witness, entry point): 10,000
 * streaks for 100 witnesses and 100 single-entry servers.
 *
 * @param selfReports the latest self-report of each witness that sent one
 * @param streaks     the current streak of each (witness, entry point) the witness probed
 */
public record MeshEvidence(List<SelfReport> selfReports, List<Streak> streaks) {

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
     * in a row; one success resets it to 0.
     *
     * @param failures        consecutive failed probes, at least 0
     * @param receivedAtNanos when the hub received the report that carried it, on the hub's monotonic ticker: a
     *                        streak older than {@code no-data-after} is no evidence any more
     */
    public record Streak(String witness, String server, String entryPoint, int failures, long receivedAtNanos) {

        public Streak {
            Objects.requireNonNull(witness, "witness");
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(entryPoint, "entryPoint");
            if (failures < 0) {
                throw new IllegalArgumentException("failures: " + failures + " (expected: >= 0)");
            }
        }
    }

    public MeshEvidence {
        selfReports = List.copyOf(selfReports);
        streaks = List.copyOf(streaks);
    }
}
