package io.observatory.api;

import io.observatory.snapshot.Memo;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import java.util.function.Function;

/**
 * A value derived from the current observation, built on the first read after each publication and shared by every
 * read of the same snapshot: a {@link Memo} keyed by the store's current observation. Any thread.
 *
 * @param <V> the derived value, immutable
 */
final class PerObservation<V> {

    private final ObservationStore store;
    private final Memo<Observation, V> memo;

    /**
     * @param store where the observation is read
     * @param build the value of one observation; pure
     */
    PerObservation(ObservationStore store, Function<Observation, V> build) {
        this.store = store;
        this.memo = new Memo<>(build);
    }

    /** The value of the current observation. */
    V get() {
        return memo.get(store.current());
    }

    /** Whether the value of the current observation is built already, so {@link #get} returns without building. */
    boolean ready() {
        return memo.ready(store.current());
    }
}
