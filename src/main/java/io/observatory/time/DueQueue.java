package io.observatory.time;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * When each key is next due, as a min-queue of ticker readings: the one due-time queue of the writer (the
 * per-outbound observer's probe sessions, the passive ledger's window expiries and reactivations). Setting a new time
 * leaves the old entry in the queue, skipped when it comes up (its time is no longer the key's), and the queue is
 * rebuilt once it holds more than twice as many entries as keys, so taking what is due costs O(due × log n), not O(n).
 * Confined to one thread; costs per key with a time one map entry and one or two queue entries, about 120 bytes.
 *
 * @param <K> the key, e.g. an outbound's tag; keys are compared with {@code equals}
 */
public final class DueQueue<K> {

    private record Entry<K>(long atNanos, K key) {}

    private final Map<K, Long> dueAt = new HashMap<>();
    private final PriorityQueue<Entry<K>> queue = new PriorityQueue<>(Comparator.comparingLong(Entry::atNanos));

    /** Makes {@code key} due at {@code atNanos} (ticker nanoseconds); {@link Long#MAX_VALUE} means never, removing it. */
    public void set(K key, long atNanos) {
        if (atNanos == Long.MAX_VALUE) {
            remove(key);
            return;
        }
        Long before = dueAt.put(key, atNanos);
        if (before == null || before != atNanos) {
            queue.add(new Entry<>(atNanos, key));
            compactIfStale();
        }
    }

    /** Makes {@code key} due never. */
    public void remove(K key) {
        if (dueAt.remove(key) != null) {
            compactIfStale();
        }
    }

    /** Removes the keys not in {@code keys}: O(keys held). */
    public void retain(Set<K> keys) {
        if (dueAt.keySet().retainAll(keys)) {
            compactIfStale();
        }
    }

    /** Removes and returns the keys due at {@code nowNanos} or before, earliest first. */
    public List<K> takeDue(long nowNanos) {
        List<K> due = new ArrayList<>();
        while (!queue.isEmpty() && queue.peek().atNanos() <= nowNanos) {
            Entry<K> entry = queue.poll();
            if (current(entry)) {
                dueAt.remove(entry.key());
                due.add(entry.key());
            }
        }
        return due;
    }

    /** The earliest time a key is due, {@link Long#MAX_VALUE} when none is. */
    public long earliest() {
        while (!queue.isEmpty()) {
            Entry<K> head = queue.peek();
            if (current(head)) {
                return head.atNanos();
            }
            queue.poll();
        }
        return Long.MAX_VALUE;
    }

    /** Whether no key is due. */
    public boolean isEmpty() {
        return dueAt.isEmpty();
    }

    private boolean current(Entry<K> entry) {
        Long at = dueAt.get(entry.key());
        return at != null && at == entry.atNanos();
    }

    private void compactIfStale() {
        if (queue.size() > 2 * dueAt.size() + 16) {
            queue.clear();
            dueAt.forEach((key, at) -> queue.add(new Entry<>(at, key)));
        }
    }
}
