package io.observatory.status;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the current {@link Observation}. The active observer is the only writer and replaces the whole snapshot;
 * readers (gRPC handlers) take the current reference without locking.
 */
public final class ObservationStore {

    private final AtomicReference<Observation> current = new AtomicReference<>(Observation.EMPTY);

    /** Returns the latest published snapshot; never {@code null}. */
    public Observation current() {
        return current.get();
    }

    /** Replaces the snapshot; called by the active observer's writer thread only. */
    public void publish(Observation observation) {
        current.set(observation);
    }
}
