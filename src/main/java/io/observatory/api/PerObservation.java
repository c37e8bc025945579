package io.observatory.api;

import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A value derived from the current observation, built on the first read after each publication and shared by every
 * read of the same snapshot (a read-side memo: the writer never pays for it, and a snapshot nobody reads costs
 * nothing). Any thread. Readers of a new snapshot agree on one holder for it, and the first of them to ask builds
 * the value while the others wait for it, so a burst of reads after a publication builds once; a reader that finds a
 * holder for another snapshot (a publication raced it) builds its own snapshot's value and returns it without
 * storing it. Holds one value and the snapshot it was built from.
 *
 * @param <V> the derived value, immutable
 */
final class PerObservation<V> {

    private final ObservationStore store;
    private final Function<Observation, V> build;
    private final AtomicReference<@Nullable Holder<V>> last = new AtomicReference<>();

    /**
     * @param store where the observation is read
     * @param build the value of one observation; pure
     */
    PerObservation(ObservationStore store, Function<Observation, V> build) {
        this.store = store;
        this.build = build;
    }

    /** The value of the current observation. */
    V get() {
        Observation current = store.current();
        Holder<V> held = last.get();
        if (held == null || held.observation != current) {
            Holder<V> mine = new Holder<>(current, build);
            held = last.compareAndSet(held, mine) ? mine : last.get();
            if (held == null || held.observation != current) {
                held = mine;
            }
        }
        return held.value();
    }

    /** Whether the value of the current observation is built already, so {@link #get} returns without building. */
    boolean ready() {
        Holder<V> held = last.get();
        return held != null && held.observation == store.current() && held.built();
    }

    /** One snapshot's value, built once by the first reader that asks. */
    private static final class Holder<V> {
        private final Observation observation;
        private final Function<Observation, V> build;
        private @Nullable V value;

        Holder(Observation observation, Function<Observation, V> build) {
            this.observation = observation;
            this.build = build;
        }

        synchronized boolean built() {
            return value != null;
        }

        synchronized V value() {
            if (value == null) {
                value = build.apply(observation);
            }
            return value;
        }
    }
}
