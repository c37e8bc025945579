package io.observatory.incident;

import io.observatory.time.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded queue drained on one thread, with at most one drain scheduled at a time: producers offer from any thread
 * and never block; the drain, on the thread, reads the head, handles it, and removes what it handled, so an item that
 * fails stays at the head for the next attempt. A full queue drops the newest item and counts it; that it is full is
 * logged once, and again when it has drained below half. The incident store's transitions and each notification
 * channel's notices wait in one. Costs the queued items and a few fields.
 *
 * @param <T> the item type
 */
public final class DrainQueue<T> {

    private static final Logger log = LoggerFactory.getLogger(DrainQueue.class);

    /**
     * What the log says of a queue.
     *
     * @param name    the queue, e.g. {@code incident queue}
     * @param waiting what its items wait for, e.g. {@code transitions waiting for the database}
     * @param metric  the counter of dropped items, e.g. {@code observatory_incidents_dropped_total}
     */
    public record Words(String name, String waiting, String metric) {}

    private final Words words;
    private final int capacity;
    private final Scheduler thread;
    private final Runnable drain;
    private final Object lock = new Object();
    // Guarded by lock.
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    private boolean drainScheduled;
    private boolean full;
    private final AtomicLong dropped = new AtomicLong();

    /**
     * @param capacity the most items queued, positive
     * @param thread   where {@code drain} runs
     * @param drain    reads the head and removes what it handled; reschedules itself ({@link #schedule}) on failure
     * @throws IllegalArgumentException when {@code capacity} is not positive
     */
    public DrainQueue(Words words, int capacity, Scheduler thread, Runnable drain) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        this.words = words;
        this.capacity = capacity;
        this.thread = thread;
        this.drain = drain;
    }

    /**
     * Queues {@code item} and schedules a drain; never blocks. Any thread.
     *
     * @return false when the queue was full and {@code item} was dropped
     */
    public boolean offer(T item) {
        synchronized (lock) {
            if (queue.size() >= capacity) {
                dropped.incrementAndGet();
                if (!full) {
                    full = true;
                    log.warn(
                            "{} full ({} {}): dropping new ones until it drains; see {}",
                            words.name(),
                            capacity,
                            words.waiting(),
                            words.metric());
                }
                return false;
            }
            queue.addLast(item);
        }
        schedule(Duration.ZERO);
        return true;
    }

    /** Runs the drain after {@code delay}, unless one is scheduled already. Any thread. */
    public void schedule(Duration delay) {
        synchronized (lock) {
            if (drainScheduled) {
                return;
            }
            drainScheduled = true;
        }
        thread.schedule(delay, () -> {
            synchronized (lock) {
                drainScheduled = false;
            }
            drain.run();
        });
    }

    /** The first {@code max} items, oldest first; empty when none wait. */
    public List<T> head(int max) {
        synchronized (lock) {
            List<T> head = new ArrayList<>(Math.min(max, queue.size()));
            for (T item : queue) {
                if (head.size() == max) {
                    break;
                }
                head.add(item);
            }
            return head;
        }
    }

    /** Removes the first {@code count} items, handled; the drain's thread only. */
    public void removeHead(int count) {
        synchronized (lock) {
            for (int i = 0; i < count; i++) {
                queue.pollFirst();
            }
            drained();
        }
    }

    /** Removes {@code item}, refused for good, and counts it as dropped; the drain's thread only. */
    public void drop(T item) {
        dropped.incrementAndGet();
        synchronized (lock) {
            queue.remove(item);
            drained();
        }
    }

    /** Items waiting. */
    public int size() {
        synchronized (lock) {
            return queue.size();
        }
    }

    /** The most items queued. */
    public int capacity() {
        return capacity;
    }

    /** Items dropped since the start: refused for good, or offered while the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    // Guarded by lock.
    private void drained() {
        if (full && queue.size() < capacity / 2 + 1) {
            full = false;
            log.info("{} draining ({} waiting); {} dropped so far", words.name(), queue.size(), dropped.get());
        }
    }
}
