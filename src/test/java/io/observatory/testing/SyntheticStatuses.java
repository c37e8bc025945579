package io.observatory.testing;

import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.status.OutboundStatus;

/** Observer statuses for benchmarks that feed the updater without probing: one alive or dead status per call. */
public final class SyntheticStatuses {

    private SyntheticStatuses() {
    }

    /** A status as a probe would leave it: alive with a 42 ms delay, or dead with Xray's dead delay and a refusal. */
    public static OutboundStatus status(String tag, boolean alive) {
        HealthState state = alive ? HealthState.HEALTHY : HealthState.UNHEALTHY;
        return new OutboundStatus(tag, alive, alive ? 42 : OutboundStatus.DEAD_DELAY_MILLIS,
                alive ? "" : "outbound " + tag + ": connection refused", null, null, null, null,
                new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1), alive ? "probe succeeded" : "probe failed");
    }
}
