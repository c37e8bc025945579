package io.observatory.snapshot;

import io.observatory.health.CallOutcome;
import java.time.Instant;
import java.util.Objects;

/**
 * One call outcome a balancer reported for passive health, already validated by the API.
 *
 * @param tag          a configured outbound's tag
 * @param outcome      how the call ended
 * @param latencyNanos how long the call took, {@code >= 0}
 * @param endedAt      wall time the call ended; goes into the call statistics only (policies count a call when its
 *                     report is applied)
 */
public record PassiveReport(String tag, CallOutcome outcome, long latencyNanos, Instant endedAt) {

    /** @throws IllegalArgumentException if the latency is negative */
    public PassiveReport {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(endedAt, "endedAt");
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("latency_nanos: " + latencyNanos + " (expected: >= 0)");
        }
    }
}
