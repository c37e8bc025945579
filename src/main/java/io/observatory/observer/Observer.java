package io.observatory.observer;

import io.observatory.stats.RttRing;
import java.util.List;
import java.util.Map;

/** Schedules probes of the selected outbounds and publishes what it learns as observation snapshots. */
public interface Observer {

    /**
     * Starts probing; returns at once. Probes nothing when the subject selector is empty (Xray lazy start), and then
     * only drops, on the writer, the statuses it started from (a predecessor's or restored ones).
     */
    void start();

    /** Stops probing: cancels scheduled and in-flight probes. The last snapshot stays published. */
    void stop();

    /**
     * The configured outbounds changed: drops the statuses of outbounds no longer selected before it returns, so that
     * a probe result already queued on the writer is not kept for them; newly selected ones are probed from the next
     * round (standard) or at once and then every cycle (burst). Writer only.
     */
    void outboundsChanged();

    /**
     * The sample rings the statuses are computed from, by tag, each oldest first (the burst observer's; none for the
     * others): what the state file keeps besides the statuses. Writer only; O(outbounds × sampling).
     */
    default Map<String, List<RttRing.Sample>> samples() {
        return Map.of();
    }
}
