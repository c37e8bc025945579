package io.observatory.observer;

import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import java.util.function.Supplier;

/**
 * Publishes an observer's state as a new snapshot, coalescing bursts of updates: many results handled back to back
 * on the writer thread produce one snapshot. Writer thread only.
 */
final class SnapshotPublisher {

    private final ObserverScheduler scheduler;
    private final ObservationStore store;
    private final Supplier<Observation> snapshot;
    private boolean queued;

    SnapshotPublisher(ObserverScheduler scheduler, ObservationStore store, Supplier<Observation> snapshot) {
        this.scheduler = scheduler;
        this.store = store;
        this.snapshot = snapshot;
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
        store.publish(snapshot.get());
    }
}
