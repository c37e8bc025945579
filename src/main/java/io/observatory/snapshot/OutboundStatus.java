package io.observatory.snapshot;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the active observer currently says about one outbound, in Xray's terms ({@code OutboundStatus} in
 * {@code app/observatory/config.proto}), with the evidence behind it. Immutable; about 120 bytes per outbound plus
 * its last probe result.
 *
 * @param tag             the outbound's tag
 * @param alive           usable now: the active state is HEALTHY, which under Xray's check is exactly Xray's alive
 * @param delayMillis     last RTT (standard) or average RTT (burst) in milliseconds; {@link #DEAD_DELAY_MILLIS} for a
 *                        standard-observer outbound whose last probe failed
 * @param lastErrorReason why the last probe failed; empty when alive
 * @param lastSeen        wall time of the last success (kept while dead), or {@code null} if never (always for burst)
 * @param lastTry         wall time of the last attempt, or {@code null} (always for burst)
 * @param healthPing      burst statistics, or {@code null} for the standard observer
 * @param lastProbe       the last probe result with phases and classified error (judged against the expected
 *                        status), or {@code null} (burst)
 * @param active          the active health after the last evaluation (hysteresis state)
 * @param activeDetail    one line on the evidence of the last evaluation, e.g. {@code probe succeeded: HTTP 204 in 12
 *                        ms} or {@code 3/10 samples failed}; the reason a change of the active state is reported with
 * @param restoredFrom    for a status restored at start-up from the state file ({@code observatory.state}) and not
 *                        yet replaced by a probe of this process: when the previous process measured it (its last
 *                        probe's end, or when it saved a burst window); {@code null} for a status this process measured
 */
public record OutboundStatus(
        String tag,
        boolean alive,
        long delayMillis,
        String lastErrorReason,
        @Nullable Instant lastSeen,
        @Nullable Instant lastTry,
        @Nullable HealthPingStats healthPing,
        @Nullable ProbeResult lastProbe,
        ActiveHealth active,
        String activeDetail,
        @Nullable Instant restoredFrom) {

    /** Xray's delay for a dead outbound: effectively infinite for sorting. */
    public static final long DEAD_DELAY_MILLIS = 99_999_999L;

    public OutboundStatus {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(lastErrorReason, "lastErrorReason");
        Objects.requireNonNull(active, "active");
        Objects.requireNonNull(activeDetail, "activeDetail");
    }

    /** A status this process measured ({@link #restoredFrom} {@code null}). */
    public OutboundStatus(
            String tag,
            boolean alive,
            long delayMillis,
            String lastErrorReason,
            @Nullable Instant lastSeen,
            @Nullable Instant lastTry,
            @Nullable HealthPingStats healthPing,
            @Nullable ProbeResult lastProbe,
            ActiveHealth active,
            String activeDetail) {
        this(
                tag,
                alive,
                delayMillis,
                lastErrorReason,
                lastSeen,
                lastTry,
                healthPing,
                lastProbe,
                active,
                activeDetail,
                null);
    }

    /** This status as restored from the state file, measured at {@code measured} by the previous process. */
    public OutboundStatus asRestored(Instant measured) {
        return new OutboundStatus(
                tag,
                alive,
                delayMillis,
                lastErrorReason,
                lastSeen,
                lastTry,
                healthPing,
                lastProbe,
                active,
                activeDetail,
                measured);
    }

    /**
     * The standard observer's update ({@code updateStatusForResult} in {@code app/observatory/observer.go}) with the
     * active check applied: the result is {@linkplain #judged judged}, the active state moves by the
     * thresholds, and {@code alive} is that state being HEALTHY. On success: delay = RTT in whole milliseconds, last
     * try = last seen = {@code now}, reason cleared. On failure: reason set, last try = {@code now}, last seen kept,
     * delay {@link #DEAD_DELAY_MILLIS} unless the state is still HEALTHY (below the unhealthy threshold), which keeps
     * the last delay.
     *
     * @param previous the outbound's status before this probe, or {@code null} if it had none
     * @param result   the probe's result as the prober returned it
     * @param now      wall time of the update
     * @param check    how the result is judged
     */
    public static OutboundStatus afterProbe(
            @Nullable OutboundStatus previous, ProbeResult result, Instant now, ActiveCheck check) {
        ProbeResult judged = judged(result, check);
        ActiveHealth active =
                check.thresholds().next(previous == null ? ActiveHealth.INITIAL : previous.active(), judged.success());
        boolean alive = active.state() == HealthState.HEALTHY;
        if (judged.error() == null) {
            return new OutboundStatus(
                    judged.outboundTag(),
                    alive,
                    judged.rttMillis(),
                    "",
                    now,
                    now,
                    null,
                    judged,
                    active,
                    "probe succeeded: HTTP " + judged.httpStatus() + " in " + judged.rttMillis() + " ms");
        }
        long delay = alive && previous != null ? previous.delayMillis() : DEAD_DELAY_MILLIS;
        return new OutboundStatus(
                judged.outboundTag(),
                alive,
                delay,
                judged.error().reason(),
                previous == null ? null : previous.lastSeen(),
                now,
                null,
                judged,
                active,
                "probe failed: " + judged.error().reason());
    }

    /**
     * A probe result judged against the check's expected statuses: a response whose status is not expected becomes a
     * failed result of kind {@link ProbeError.Kind#UNEXPECTED_STATUS} whose reason names the outbound and the status;
     * anything else is returned as is (always under Xray's check, any status). A successful handshake of a tcp or tls
     * outbound has no HTTP status (0): the expected statuses do not apply to it.
     */
    public static ProbeResult judged(ProbeResult result, ActiveCheck check) {
        if (!result.success() || result.httpStatus() == 0) {
            return result;
        }
        return check.unexpectedStatus(result.httpStatus())
                .map(why -> new ProbeResult(
                        result.outboundTag(),
                        false,
                        result.rttNanos(),
                        result.phases(),
                        result.httpStatus(),
                        result.startedAt(),
                        result.finishedAt(),
                        new ProbeError(
                                ProbeError.Kind.UNEXPECTED_STATUS,
                                ProbeError.Hop.TARGET,
                                "outbound " + result.outboundTag() + ": " + why,
                                null)))
                .orElse(result);
    }

    /**
     * The burst observer's status ({@code createResult} in {@code app/observatory/burst/burstobserver.go}) with the
     * active check applied: delay = average RTT in whole milliseconds, no reason, timestamps unset, and
     * {@code alive} = the active state being HEALTHY.
     *
     * @param active the active health after judging this window
     * @param detail the window as {@link io.observatory.health.BurstWindowRule#describe} says it
     */
    public static OutboundStatus fromBurst(String tag, HealthPingStats stats, ActiveHealth active, String detail) {
        return new OutboundStatus(
                tag,
                active.state() == HealthState.HEALTHY,
                stats.averageNanos() / 1_000_000,
                "",
                null,
                null,
                stats,
                null,
                active,
                detail);
    }

    /** {@link #lastSeen} in Xray's unit, unix seconds; 0 when never seen. */
    public long lastSeenEpochSeconds() {
        return lastSeen == null ? 0 : lastSeen.getEpochSecond();
    }

    /** {@link #lastTry} in Xray's unit, unix seconds; 0 when never tried. */
    public long lastTryEpochSeconds() {
        return lastTry == null ? 0 : lastTry.getEpochSecond();
    }
}
