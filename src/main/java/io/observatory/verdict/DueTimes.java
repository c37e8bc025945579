package io.observatory.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * When each outbound is next due, as a min-queue of ticker readings by tag: setting a new time leaves the old entry
 * in the queue, skipped when it comes up (its time is no longer the tag's), and the queue is rebuilt once it holds
 * more than twice as many entries as tags. Taking what is due costs O(due × log n), not O(n). Confined to one thread;
 * costs per outbound with a time one map entry and one or two queue entries, about 120 bytes.
 */
final class DueTimes {

    private record Entry(long atNanos, String tag) {}

    private final Map<String, Long> dueAt = new HashMap<>();
    private final PriorityQueue<Entry> queue = new PriorityQueue<>(Comparator.comparingLong(Entry::atNanos));

    /** Makes {@code tag} due at {@code atNanos}; {@link Long#MAX_VALUE} means never, removing it. */
    void set(String tag, long atNanos) {
        if (atNanos == Long.MAX_VALUE) {
            dueAt.remove(tag);
            return;
        }
        Long before = dueAt.put(tag, atNanos);
        if (before == null || before != atNanos) {
            queue.add(new Entry(atNanos, tag));
            compactIfStale();
        }
    }

    /** Removes the tags not in {@code tags}: O(tags held). */
    void retain(Set<String> tags) {
        if (dueAt.keySet().retainAll(tags)) {
            compactIfStale();
        }
    }

    /** Removes and returns the tags due at {@code nowNanos} or before, earliest first. */
    List<String> takeDue(long nowNanos) {
        List<String> due = new ArrayList<>();
        while (!queue.isEmpty() && queue.peek().atNanos() <= nowNanos) {
            Entry entry = queue.poll();
            Long current = dueAt.get(entry.tag());
            if (current != null && current == entry.atNanos()) {
                dueAt.remove(entry.tag());
                due.add(entry.tag());
            }
        }
        return due;
    }

    /** The earliest time a tag is due, {@link Long#MAX_VALUE} when none is. */
    long earliest() {
        while (!queue.isEmpty()) {
            Entry head = queue.peek();
            Long current = dueAt.get(head.tag());
            if (current != null && current == head.atNanos()) {
                return head.atNanos();
            }
            queue.poll();
        }
        return Long.MAX_VALUE;
    }

    private void compactIfStale() {
        if (queue.size() > 2 * dueAt.size() + 16) {
            queue.clear();
            dueAt.forEach((tag, at) -> queue.add(new Entry(at, tag)));
        }
    }
}
