package io.observatory.mesh.protocol;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A witness's whole current state, as it sends it to every hub each report interval.
 *
 * @param witness      its name
 * @param processStart when its process started: a restarted witness numbers its reports from 1 again
 * @param sequence     this report's number within the process, from 1
 * @param selfChecks   its own server's checks, in configuration order; none for an external vantage point
 * @param paths        per entry point it probed at least once, its streaks and last probe
 * @param metrics      its reading of its own server, {@link ServerMetrics#NONE} when it sends none
 */
public record WitnessReport(
        String witness,
        Instant processStart,
        long sequence,
        List<SelfCheckResult> selfChecks,
        List<PathStreak> paths,
        ServerMetrics metrics) {

    public WitnessReport {
        Objects.requireNonNull(witness, "witness");
        Objects.requireNonNull(processStart, "processStart");
        selfChecks = List.copyOf(selfChecks);
        paths = List.copyOf(paths);
        Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * One self-check's result.
     *
     * @param name    e.g. {@code tcp 127.0.0.1:443}
     * @param passing whether it passes
     * @param detail  why it fails, e.g. {@code ConnectException: Connection refused}; empty when passing
     */
    public record SelfCheckResult(String name, boolean passing, String detail) {}
}
