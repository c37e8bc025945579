package io.observatory.observer;

import io.observatory.status.OutboundStatus;
import io.observatory.time.Scheduler;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hands an observer's statuses on, coalescing bursts of updates: many results handled back to back on the writer
 * produce one publication. Once its observer has stopped it publishes nothing, so a replaced observer's queued
 * publication cannot overwrite its successor's statuses. Writer only.
 */
final class StatusPublisher {

    private final Scheduler writer;
    private final Consumer<List<OutboundStatus>> sink;
    private final Supplier<List<OutboundStatus>> statuses;
    private final BooleanSupplier stopped;
    private boolean queued;

    StatusPublisher(Scheduler writer, Consumer<List<OutboundStatus>> sink, Supplier<List<OutboundStatus>> statuses,
            BooleanSupplier stopped) {
        this.writer = writer;
        this.sink = sink;
        this.statuses = statuses;
        this.stopped = stopped;
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
        if (!stopped.getAsBoolean()) {
            sink.accept(statuses.get());
        }
    }
}
