package io.observatory.observer;

import io.observatory.probe.ProbeResult;

/**
 * Hears every completed probe of an outbound an observer still selects, as the prober returned it, on the writer;
 * the probe metrics. Results the observer drops (the outbound was deselected or removed meanwhile, the observer was
 * replaced) and connectivity checks are not recorded, so no outbound's metrics outlive it.
 */
@FunctionalInterface
public interface ProbeRecorder {

    /** Records one completed probe; writer only, so it must be quick. */
    void record(ProbeResult result);
}
