package io.observatory.status;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import java.util.Optional;

/**
 * Pure functions mapping probe evidence to {@link OutboundStatus} values: Xray's updates, judged by the observer's
 * {@link ActiveCheck}. Under {@link ActiveCheck#DEFAULT} every Xray field is exactly what Xray reports.
 */
public final class StatusMapping {

    private StatusMapping() {}

    /**
     * A probe result judged against the expected statuses: a response whose status is not expected becomes a failed
     * result of kind {@link ProbeError.Kind#UNEXPECTED_STATUS} whose reason names the status; anything else is
     * returned as is.
     */
    public static ProbeResult judged(ProbeResult result, ActiveCheck check) {
        if (!result.success()) {
            return result;
        }
        Optional<String> unexpected = check.unexpectedStatus(result.httpStatus());
        if (unexpected.isEmpty()) {
            return result;
        }
        ProbeError error = new ProbeError(ProbeError.Kind.UNEXPECTED_STATUS, ProbeError.Hop.TARGET,
                "outbound " + result.outboundTag() + ": " + unexpected.get(), null);
        return new ProbeResult(result.outboundTag(), false, result.rttNanos(), result.phases(), result.httpStatus(),
                result.startedAt(), result.finishedAt(), error);
    }

    /**
     * The standard observer's update ({@code updateStatusForResult} in {@code app/observatory/observer.go}) with the
     * active check applied: the result is {@linkplain #judged judged}, the active state moves by the thresholds, and
     * {@code alive} is that state being HEALTHY. On success: delay = RTT in whole milliseconds, last try = last seen =
     * {@code now}, reason cleared. On failure: reason set, last try = {@code now}, last seen kept, delay
     * {@link OutboundStatus#DEAD_DELAY_MILLIS} unless the state is still HEALTHY (below the unhealthy threshold), which
     * keeps the last delay.
     *
     * @param previous the outbound's status before this probe, or {@code null} if it had none
     * @param result the probe's result as the prober returned it
     * @param now wall time of the update
     * @param check how the result is judged
     */
    public static OutboundStatus afterProbe(OutboundStatus previous, ProbeResult result, Instant now,
            ActiveCheck check) {
        ProbeResult judged = judged(result, check);
        ActiveHealth before = previous == null ? ActiveHealth.INITIAL : previous.active();
        ActiveHealth active = check.thresholds().next(before, judged.success());
        boolean alive = active.state() == HealthState.HEALTHY;
        if (judged.success()) {
            return new OutboundStatus(judged.outboundTag(), alive, judged.rttMillis(), "", now, now, null, judged,
                    active, "probe succeeded: HTTP " + judged.httpStatus() + " in " + judged.rttMillis() + " ms");
        }
        Instant lastSeen = previous == null ? null : previous.lastSeen();
        long delay = alive ? previous.delayMillis() : OutboundStatus.DEAD_DELAY_MILLIS;
        return new OutboundStatus(judged.outboundTag(), alive, delay, judged.error().reason(), lastSeen, now, null,
                judged, active, "probe failed: " + judged.error().reason());
    }

    /**
     * The burst observer's status ({@code createResult} in {@code app/observatory/burst/burstobserver.go}) with the
     * active check applied: delay = average RTT in whole milliseconds, no reason, timestamps unset, and
     * {@code alive} = the active state being HEALTHY.
     *
     * @param active the active health after evaluating this window
     * @param detail the window described by {@link #burstDetail}
     */
    public static OutboundStatus fromBurst(String tag, HealthPingStats stats, ActiveHealth active, String detail) {
        return new OutboundStatus(tag, active.state() == HealthState.HEALTHY, stats.averageNanos() / 1_000_000, "",
                null, null, stats, null, active, detail);
    }
}
