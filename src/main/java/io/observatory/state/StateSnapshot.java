package io.observatory.state;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.MeshHub;
import io.observatory.status.Observation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the writer hands to the state file's thread: immutable references taken on the writer in O(1) but for the
 * hub's reports (one reference per witness); the encoding happens off the writer.
 *
 * @param taken       when it was taken (wall clock)
 * @param config      the configuration in force, for what each status {@link Measures measures}
 * @param observation the observation: observer statuses, passive views
 * @param reports     a hub's held reports; empty elsewhere
 */
record StateSnapshot(Instant taken, ObservatoryConfig config, Observation observation,
        List<MeshHub.HeldReport> reports) {

    StateSnapshot {
        Objects.requireNonNull(taken, "taken");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(observation, "observation");
        reports = List.copyOf(reports);
    }
}
