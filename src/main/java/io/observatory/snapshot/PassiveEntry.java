package io.observatory.snapshot;

import io.observatory.health.PassivePolicy;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One outbound's passive evidence as the verdicts keep it: what the state file saves and a restarted process takes
 * back ({@link ObservationUpdater#passiveEntries}, {@link ObservationUpdater#restorePassive}).
 *
 * @param tag   the outbound
 * @param state its state under the passive policy; its times are readings of the writer's ticker
 * @param calls the statistics of its reported calls, or {@code null} when none was reported
 */
public record PassiveEntry(
        String tag,
        PassivePolicy.PassiveState state,
        @Nullable CallStatistics calls) {

    public PassiveEntry {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(state, "state");
    }
}
