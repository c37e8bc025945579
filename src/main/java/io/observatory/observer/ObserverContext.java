package io.observatory.observer;

import io.observatory.config.Outbound;
import io.observatory.probe.Prober;
import io.observatory.status.OutboundStatus;
import io.observatory.time.Scheduler;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What every observer works with.
 *
 * @param writer    the one thread all observer state is confined to, and its time
 * @param prober    sends the probes
 * @param outbounds the configured outbounds, re-read every round or cycle; read on the writer
 * @param recorder  hears every completed probe the observer keeps, on the writer
 * @param statuses  receives the observer's statuses, one per observed outbound, on the writer
 */
record ObserverContext(Scheduler writer, Prober prober, Supplier<List<Outbound>> outbounds, ProbeRecorder recorder,
        Consumer<List<OutboundStatus>> statuses) {}
