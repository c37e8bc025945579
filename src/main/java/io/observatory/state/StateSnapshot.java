package io.observatory.state;

import io.observatory.config.ObservatoryConfig;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.stats.RttRing;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the writer hands to the state file's thread: immutable references taken on the writer in O(1) but for the
 * burst samples (copied: O(outbounds × sampling)), the passive entries (O(outbounds with reports)) and what each
 * checkpoint took; the encoding happens off the writer.
 *
 * @param taken       when it was taken (wall clock)
 * @param takenNanos  the same moment on the writer's ticker, to put the samples' ticker times on the wall clock
 * @param config      the configuration in force, for what each status {@link Measures measures}
 * @param observation the observation: observer statuses, passive views
 * @param samples     the burst observer's samples by tag, oldest first (copies); empty for the others
 * @param passive     the passive states and call statistics
 * @param parts       what each checkpoint took, by name
 */
record StateSnapshot(
        Instant taken,
        long takenNanos,
        ObservatoryConfig config,
        Observation observation,
        Map<String, List<RttRing.Sample>> samples,
        ObservationUpdater.PassiveEntries passive,
        Map<String, Checkpoint.Taken> parts) {

    StateSnapshot {
        Objects.requireNonNull(taken, "taken");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(passive, "passive");
        samples = Map.copyOf(samples);
        parts = Map.copyOf(parts);
    }
}
