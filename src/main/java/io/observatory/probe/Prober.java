package io.observatory.probe;

import reactor.core.publisher.Mono;

/** Sends probes through outbounds. */
public interface Prober {

    /**
     * Sends one probe. The returned {@link Mono} always completes with a result (failures are results, never errors)
     * within the request's timeout plus the wait for a free slot; cancelling it aborts the probe.
     */
    Mono<ProbeResult> probe(ProbeRequest request);
}
