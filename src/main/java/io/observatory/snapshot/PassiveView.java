package io.observatory.snapshot;

import io.observatory.health.HealthState;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One outbound's passive health as the API shows it. Immutable.
 *
 * @param state               the passive state
 * @param windowCalls         calls in the detection window (transport-failure-rate), else 0
 * @param windowFailures      transport failures in the detection window (transport-failure-rate), else 0
 * @param consecutiveFailures the current run of failed calls (consecutive-failures), else 0
 * @param calls               statistics of every reported call, or {@code null} when none was reported
 */
public record PassiveView(
        HealthState state,
        int windowCalls,
        int windowFailures,
        int consecutiveFailures,
        @Nullable CallStatistics calls) {

    /** No call reported. */
    public static final PassiveView NONE = new PassiveView(HealthState.UNKNOWN, 0, 0, 0, null);

    public PassiveView {
        Objects.requireNonNull(state, "state");
    }
}
