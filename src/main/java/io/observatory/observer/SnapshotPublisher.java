package io.observatory.observer;

import io.observatory.time.Scheduler;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Publishes an observer's state as a new snapshot, coalescing bursts of updates: many results handled back to back
 * on the writer thread produce one snapshot. Once its observer has stopped it publishes nothing, so a replaced
 * observer's queued publication cannot overwrite its successor's snapshot. Writer thread only.
 */
final class SnapshotPublisher {

    private final Scheduler scheduler;
    private final ObservationStore store;
    private final Supplier<Observation> snapshot;
    private final BooleanSupplier stopped;
    private boolean queued;

    SnapshotPublisher(Scheduler scheduler, ObservationStore store, Supplier<Observation> snapshot,
            BooleanSupplier stopped) {
        this.scheduler = scheduler;
        this.store = store;
        this.snapshot = snapshot;
        this.stopped = stopped;
    }

    /** Publishes after the tasks already queued on the writer thread. */
    void changed() {
        if (!queued) {
            queued = true;
            scheduler.execute(this::publishNow);
        }
    }

    /** Publishes at once. */
    void publishNow() {
        queued = false;
        if (!stopped.getAsBoolean()) {
            store.publish(snapshot.get());
        }
    }
}
