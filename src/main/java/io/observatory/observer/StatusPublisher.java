package io.observatory.observer;

import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.StatusSink;
import io.observatory.time.Scheduler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Hands an observer's status changes on to its {@link StatusSink}, coalescing bursts: many results handled back to
 * back on the writer produce one publication carrying only what changed. The sink is the one holder of the published
 * statuses; this publisher holds only what is marked and not yet handed on. Once its observer has stopped it
 * publishes nothing, so a replaced observer's queued publication cannot overwrite its successor's statuses. Writer
 * only.
 *
 * <p>Two ways in. An observer that knows what it changed marks each change ({@link #put}, {@link #remove}): a
 * publication then costs O(changes). An observer whose statuses are derived from state that ages (the burst
 * observer's windows) hands over its whole set instead ({@link #ofSnapshots}), and the publisher sends what differs
 * from what the sink holds, at O(outbounds) per publication. Costs one reference per marked status until it is
 * handed on.
 */
final class StatusPublisher {

    private final Scheduler writer;
    private final StatusSink sink;
    private final @Nullable Supplier<List<OutboundStatus>> snapshot;
    private final BooleanSupplier stopped;
    private final Map<String, OutboundStatus> pending = new LinkedHashMap<>();
    private final Set<String> pendingGone = new LinkedHashSet<>();
    private boolean queued;

    private StatusPublisher(
            Scheduler writer,
            StatusSink sink,
            @Nullable Supplier<List<OutboundStatus>> snapshot,
            BooleanSupplier stopped) {
        this.writer = writer;
        this.sink = sink;
        this.snapshot = snapshot;
        this.stopped = stopped;
    }

    /** A publisher of marked changes. */
    static StatusPublisher ofChanges(Scheduler writer, StatusSink sink, BooleanSupplier stopped) {
        return new StatusPublisher(writer, sink, null, stopped);
    }

    /** A publisher of whole sets: each publication reads {@code snapshot} and sends what differs from the sink's. */
    static StatusPublisher ofSnapshots(
            Scheduler writer, StatusSink sink, Supplier<List<OutboundStatus>> snapshot, BooleanSupplier stopped) {
        return new StatusPublisher(writer, sink, snapshot, stopped);
    }

    /** Marks {@code status} as its outbound's new status, published after the tasks already queued on the writer. */
    void put(OutboundStatus status) {
        pendingGone.remove(status.tag());
        pending.put(status.tag(), status);
        changed();
    }

    /** Marks {@code tag} as no longer observed, published after the tasks already queued on the writer. */
    void remove(String tag) {
        pending.remove(tag);
        pendingGone.add(tag);
        changed();
    }

    /** The status of {@code tag} as marked, or as the sink holds it when none is marked; {@code null} for none. */
    @Nullable
    OutboundStatus current(String tag) {
        OutboundStatus marked = pending.get(tag);
        if (marked != null) {
            return marked;
        }
        return pendingGone.contains(tag) ? null : sink.held(tag);
    }

    /** Every tag with a status as marked or held: O(outbounds). */
    Set<String> currentTags() {
        Set<String> tags = new HashSet<>(pending.keySet());
        sink.held().forEach(status -> tags.add(status.tag()));
        tags.removeAll(pendingGone);
        return tags;
    }

    /** Publishes after the tasks already queued on the writer. */
    void changed() {
        if (!queued) {
            queued = true;
            writer.execute(this::publishNow);
        }
    }

    /** Publishes at once. */
    void publishNow() {
        queued = false;
        if (stopped.getAsBoolean()) {
            return;
        }
        if (snapshot != null) {
            diff(snapshot.get());
        }
        List<OutboundStatus> changed = new ArrayList<>(pending.size());
        for (OutboundStatus status : pending.values()) {
            if (!status.equals(sink.held(status.tag()))) {
                changed.add(status);
            }
        }
        List<String> gone = new ArrayList<>(pendingGone.size());
        for (String tag : pendingGone) {
            if (sink.held(tag) != null) {
                gone.add(tag);
            }
        }
        pending.clear();
        pendingGone.clear();
        if (!changed.isEmpty() || !gone.isEmpty()) {
            sink.changed(changed, gone);
        }
    }

    private void diff(List<OutboundStatus> statuses) {
        Set<String> present = new HashSet<>(statuses.size() * 4 / 3 + 1);
        for (OutboundStatus status : statuses) {
            present.add(status.tag());
            pending.put(status.tag(), status);
        }
        sink.held().stream()
                .map(OutboundStatus::tag)
                .filter(tag -> !present.contains(tag))
                .forEach(pendingGone::add);
    }
}
