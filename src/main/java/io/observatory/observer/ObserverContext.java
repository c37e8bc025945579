package io.observatory.observer;

import io.observatory.config.Outbound;
import io.observatory.probe.Prober;
import io.observatory.snapshot.StatusSink;
import io.observatory.time.Scheduler;
import java.util.List;
import java.util.function.Supplier;

/**
 * What every observer works with.
 *
 * @param writer    the one thread all observer state is confined to, and its time
 * @param prober    sends the probes
 * @param outbounds the configured outbounds, re-read every round or cycle; read on the writer
 * @param recorder  hears every completed probe the observer keeps, on the writer
 * @param statuses  receives what changed in the observer's statuses, on the writer
 */
record ObserverContext(
        Scheduler writer,
        Prober prober,
        Supplier<List<Outbound>> outbounds,
        ProbeRecorder recorder,
        StatusSink statuses) {}
