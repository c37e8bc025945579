package io.observatory.stream;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A bounded queue of events that collapses into one snapshot when it overflows: a slow client that lets more than
 * {@code capacity} events pile up gets the whole state instead ({@code WatchObservation}'s resync), so its view is
 * repaired rather than silently missing a transition; later events queue after that snapshot. Costs at most
 * {@code capacity} queued events per stream, each built only when taken.
 *
 * @param <M> the message type
 */
public final class Events<M> implements Backlog<M> {

    private final int capacity;
    // Guards the queue: producers offer, the pump takes.
    private final Object lock = new Object();
    private final ArrayDeque<Supplier<M>> queue = new ArrayDeque<>();

    /** @param capacity the events one stream may have queued before they collapse into a snapshot, positive */
    public Events(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        this.capacity = capacity;
    }

    /** Queues one message, e.g. the first snapshot. */
    public void offer(Supplier<M> message) {
        synchronized (lock) {
            queue.add(message);
        }
    }

    /**
     * Queues {@code events}, or, when they would overflow the queue, replaces everything queued with {@code snapshot}.
     */
    public void offer(List<Supplier<M>> events, Supplier<M> snapshot) {
        synchronized (lock) {
            if (queue.size() + events.size() > capacity) {
                queue.clear();
                queue.add(snapshot);
            } else {
                queue.addAll(events);
            }
        }
    }

    @Override
    public @Nullable M take() {
        Supplier<M> next;
        synchronized (lock) {
            next = queue.poll();
        }
        return next == null ? null : next.get();
    }

    @Override
    public void putBack(M message) {
        synchronized (lock) {
            queue.addFirst(() -> message);
        }
    }

    @Override
    public boolean isEmpty() {
        synchronized (lock) {
            return queue.isEmpty();
        }
    }

    @Override
    public void clear() {
        synchronized (lock) {
            queue.clear();
        }
    }
}
