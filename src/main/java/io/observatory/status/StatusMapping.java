package io.observatory.status;

import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;

/** Pure functions mapping probe evidence to Xray {@link OutboundStatus} values, exactly as Xray updates them. */
public final class StatusMapping {

    private StatusMapping() {}

    /**
     * The standard observer's update ({@code updateStatusForResult} in {@code app/observatory/observer.go}): on success
     * alive, delay = RTT in whole milliseconds, last try = last seen = {@code now}, reason cleared; on failure not alive,
     * delay {@link OutboundStatus#DEAD_DELAY_MILLIS}, reason set, last try = {@code now}, last seen kept.
     *
     * @param previous the outbound's status before this probe, or {@code null} if it had none
     * @param result the probe's result
     * @param now wall time of the update
     */
    public static OutboundStatus afterProbe(OutboundStatus previous, ProbeResult result, Instant now) {
        if (result.success()) {
            return new OutboundStatus(result.outboundTag(), true, result.rttMillis(), "", now, now, null, result);
        }
        Instant lastSeen = previous == null ? null : previous.lastSeen();
        return new OutboundStatus(result.outboundTag(), false, OutboundStatus.DEAD_DELAY_MILLIS,
                result.error().reason(), lastSeen, now, null, result);
    }

    /**
     * The burst observer's status ({@code createResult} in {@code app/observatory/burst/burstobserver.go}): alive when
     * at least one valid sample succeeded, delay = average RTT in whole milliseconds, no reason, timestamps unset.
     */
    public static OutboundStatus fromBurst(String tag, HealthPingStats stats) {
        return new OutboundStatus(tag, stats.alive(), stats.averageNanos() / 1_000_000, "", null, null, stats, null);
    }
}
