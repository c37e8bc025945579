package io.observatory.api;

import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A value derived from the current observation, built on the first read after each publication and shared by every
 * read of the same snapshot (a read-side memo: the writer never pays for it, and a snapshot nobody reads costs
 * nothing). Any thread; two readers racing after a publication may both build, and each returns the value of the
 * snapshot it read. Holds one value and the snapshot it was built from.
 *
 * @param <V> the derived value, immutable
 */
final class PerObservation<V> {

    private final ObservationStore store;
    private final Function<Observation, V> build;
    private final AtomicReference<@Nullable Built<V>> last = new AtomicReference<>();

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
        Built<V> built = last.get();
        if (built != null && built.observation() == current) {
            return built.value();
        }
        V value = build.apply(current);
        last.set(new Built<>(current, value));
        return value;
    }

    private record Built<V>(Observation observation, V value) {
    }
}
