package io.observatory.status;

import io.observatory.time.Ticker;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Holds the current {@link Observation}. The active observer is the only writer and replaces the whole snapshot;
 * readers (gRPC handlers, metrics, the management endpoints) take the current reference without locking. Listeners
 * hear about each publication on the writer thread.
 */
public final class ObservationStore {

    private final Ticker ticker;
    private final AtomicReference<Publication> last = new AtomicReference<>();
    private final List<Consumer<Publication>> listeners = new CopyOnWriteArrayList<>();

    /** @param ticker stamps each publication, so readers can tell a snapshot's age */
    public ObservationStore(Ticker ticker) {
        this.ticker = ticker;
    }

    /** A store stamping publications with {@link Ticker#system()}. */
    public ObservationStore() {
        this(Ticker.system());
    }

    /** Returns the latest published snapshot, {@link Observation#EMPTY} before the first; never {@code null}. */
    public Observation current() {
        Publication publication = last.get();
        return publication == null ? Observation.EMPTY : publication.observation();
    }

    /** Returns the latest publication with its time stamp, or empty if nothing was published yet. */
    public Optional<Publication> lastPublication() {
        return Optional.ofNullable(last.get());
    }

    /**
     * Replaces the snapshot, then tells each listener, in registration order; called by the active observer's writer
     * thread only. A listener's exception propagates to the writer.
     */
    public void publish(Observation observation) {
        Publication publication = new Publication(observation, ticker.nanoTime());
        last.set(publication);
        for (Consumer<Publication> listener : listeners) {
            listener.accept(publication);
        }
    }

    /**
     * Registers {@code listener} for every later publication. It runs on the writer thread, so it must be quick and
     * must not block.
     */
    public void addListener(Consumer<Publication> listener) {
        listeners.add(listener);
    }

    /**
     * One published snapshot.
     *
     * @param observation the snapshot
     * @param publishedAtNanos the store's {@link Ticker} reading when it was published (nanoseconds, monotonic)
     */
    public record Publication(Observation observation, long publishedAtNanos) {}
}
