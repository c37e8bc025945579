package io.observatory.snapshot;

import io.observatory.time.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link Observation}. Only the writer publishes, replacing the whole snapshot; readers (gRPC
 * handlers, the actuator endpoint, metric scrapes) take the current reference without locking. Watchers hear each
 * publication on the writer, in order, and must not block it.
 */
public final class ObservationStore {

    private static final Logger log = LoggerFactory.getLogger(ObservationStore.class);

    private final Scheduler writer;
    // Written by the writer alone, read by any thread without locking.
    private volatile Observation current;
    // Confined to the writer: registered, notified and removed there.
    private final List<Consumer<ObservationUpdate>> watchers = new ArrayList<>();

    /**
     * @param writer  the one thread that publishes
     * @param initial the observation readers see until the first publication
     */
    public ObservationStore(Scheduler writer, Observation initial) {
        this.writer = writer;
        this.current = initial;
    }

    /** The latest snapshot; never blocks. */
    public Observation current() {
        return current;
    }

    /**
     * Replaces the snapshot, then tells each watcher, in registration order; a watcher that throws is logged and the
     * others still hear the update.
     *
     * @throws IllegalStateException when called off the writer: only the writer publishes
     */
    public void publish(ObservationUpdate update) {
        if (!writer.inSchedulerThread()) {
            throw new IllegalStateException(
                    "observation published on " + Thread.currentThread().getName() + " (expected: the writer)");
        }
        current = update.observation();
        for (Consumer<ObservationUpdate> watcher : List.copyOf(watchers)) {
            try {
                watcher.accept(update);
            } catch (RuntimeException e) {
                log.error("observation watcher {} failed; the others still hear the update", watcher, e);
            }
        }
    }

    /**
     * Starts following the observation: on the writer, {@code start} receives the current snapshot and
     * {@code updates} every later publication, so nothing published in between is missed or seen twice. Both run
     * on the writer and must be quick.
     *
     * @return cancels the subscription on the writer, after the publications already queued there
     */
    public Runnable watch(Consumer<Observation> start, Consumer<ObservationUpdate> updates) {
        writer.execute(() -> {
            start.accept(current);
            watchers.add(updates);
        });
        return () -> writer.execute(() -> watchers.remove(updates));
    }

    /**
     * Starts following one capability part: on the writer, {@code watcher} receives the part's current value and
     * then its value after each publication that replaced it (compared by identity: a publication of the outbounds
     * alone is not heard). It runs on the writer and must be quick.
     *
     * @return cancels the subscription on the writer
     */
    public <T> Runnable watchPart(SnapshotPart<T> part, Consumer<T> watcher) {
        Object[] last = new Object[1];
        Consumer<Observation> follow = observation -> {
            T value = observation.part(part);
            if (value != last[0]) {
                last[0] = value;
                watcher.accept(value);
            }
        };
        return watch(follow, update -> follow.accept(update.observation()));
    }
}
