package io.observatory.testing;

import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import java.time.Instant;

/** Observer statuses for benchmarks that feed the updater without probing: one alive or dead status per call. */
public final class SyntheticStatuses {

    private SyntheticStatuses() {}

    /** A status as a probe would leave it: alive with a 42 ms delay, or dead with Xray's dead delay and a refusal. */
    public static OutboundStatus status(String tag, boolean alive) {
        HealthState state = alive ? HealthState.HEALTHY : HealthState.UNHEALTHY;
        return new OutboundStatus(
                tag,
                alive,
                alive ? 42 : OutboundStatus.DEAD_DELAY_MILLIS,
                alive ? "" : "outbound " + tag + ": connection refused",
                null,
                null,
                null,
                null,
                new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1),
                alive ? "probe succeeded" : "probe failed");
    }

    /**
     * A standard observer's status after a probe at {@code at}, with its last probe result: alive with the RTT
     * {@code rttNanos}, or dead with a refusal whose reason is as long as a real one through a SOCKS5 proxy.
     */
    public static OutboundStatus probed(String tag, boolean alive, long rttNanos, Instant at) {
        ProbeError error = alive
                ? null
                : new ProbeError(
                        ProbeError.Kind.CONNECTION_REFUSED,
                        ProbeError.Hop.PROXY,
                        "outbound " + tag + " (socks5 10.0.0.5:1080): connection refused by 10.0.0.5:1080; caused by:"
                                + " AnnotatedConnectException: finishConnect(..) failed with error(-111): Connection refused",
                        null);
        ProbeResult result = new ProbeResult(tag, alive, rttNanos, ProbePhases.NONE, alive ? 204 : 0, at, at, error);
        HealthState state = alive ? HealthState.HEALTHY : HealthState.UNHEALTHY;
        return new OutboundStatus(
                tag,
                alive,
                alive ? result.rttMillis() : OutboundStatus.DEAD_DELAY_MILLIS,
                alive ? "" : error.reason(),
                alive ? at : null,
                at,
                null,
                result,
                new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1),
                alive
                        ? "probe succeeded: HTTP 204 in " + result.rttMillis() + " ms"
                        : "probe failed: " + error.reason());
    }
}
