package io.observatory.state;

import com.google.protobuf.ByteString;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.state.v1.SavedBurstStats;
import io.observatory.state.v1.SavedProbe;
import io.observatory.state.v1.SavedStatus;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An observer's {@link OutboundStatus} to and from the state file's {@code SavedStatus}: every field, its last probe
 * with phases and classified error, its hysteresis counters. About 150 bytes per outbound plus the error's reason.
 */
final class SavedStatuses {

    private SavedStatuses() {}

    /**
     * @param measures what the status measured ({@link Measures})
     * @param measured when it was measured
     */
    static SavedStatus save(OutboundStatus status, byte[] measures, Instant measured) {
        SavedStatus.Builder saved = SavedStatus.newBuilder()
                .setTag(status.tag())
                .setMeasures(ByteString.copyFrom(measures))
                .setMeasuredTime(Timestamps.of(measured))
                .setAlive(status.alive())
                .setDelayMillis(status.delayMillis())
                .setLastErrorReason(status.lastErrorReason())
                .setActiveState(status.active().state().name())
                .setConsecutiveSuccesses(status.active().consecutiveSuccesses())
                .setConsecutiveFailures(status.active().consecutiveFailures())
                .setActiveDetail(status.activeDetail());
        if (status.lastSeen() != null) {
            saved.setLastSeen(Timestamps.of(status.lastSeen()));
        }
        if (status.lastTry() != null) {
            saved.setLastTry(Timestamps.of(status.lastTry()));
        }
        HealthPingStats stats = status.healthPing();
        if (stats != null) {
            saved.setHealthPing(SavedBurstStats.newBuilder()
                    .setAll(stats.all())
                    .setFail(stats.fail())
                    .setDeviationNanos(stats.deviationNanos())
                    .setAverageNanos(stats.averageNanos())
                    .setMaxNanos(stats.maxNanos())
                    .setMinNanos(stats.minNanos()));
        }
        if (status.lastProbe() != null) {
            saved.setLastProbe(probe(status.lastProbe()));
        }
        return saved.build();
    }

    /**
     * The status saved, as restored: {@link OutboundStatus#restoredFrom} is its measured time.
     *
     * @throws IllegalArgumentException if a state or error name is not one this build knows
     */
    static OutboundStatus restore(SavedStatus saved) {
        HealthPingStats stats = null;
        if (saved.hasHealthPing()) {
            SavedBurstStats s = saved.getHealthPing();
            stats = new HealthPingStats(
                    s.getAll(),
                    s.getFail(),
                    s.getDeviationNanos(),
                    s.getAverageNanos(),
                    s.getMaxNanos(),
                    s.getMinNanos());
        }
        ProbeResult probe = saved.hasLastProbe() ? probe(saved.getTag(), saved.getLastProbe()) : null;
        ActiveHealth active = new ActiveHealth(
                HealthState.valueOf(saved.getActiveState()),
                saved.getConsecutiveSuccesses(),
                saved.getConsecutiveFailures());
        return new OutboundStatus(
                saved.getTag(),
                saved.getAlive(),
                saved.getDelayMillis(),
                saved.getLastErrorReason(),
                Timestamps.optional(saved.hasLastSeen(), saved.getLastSeen()),
                Timestamps.optional(saved.hasLastTry(), saved.getLastTry()),
                stats,
                probe,
                active,
                saved.getActiveDetail(),
                Timestamps.instant(saved.getMeasuredTime()));
    }

    /**
     * When a status was measured: when restored, its original time; else its last try (standard observer), or
     * {@code snapshot} (burst, whose window is as of the snapshot).
     */
    static Instant measured(OutboundStatus status, Instant snapshot) {
        if (status.restoredFrom() != null) {
            return status.restoredFrom();
        }
        return status.lastTry() != null ? status.lastTry() : snapshot;
    }

    private static SavedProbe probe(ProbeResult result) {
        ProbePhases phases = result.phases();
        SavedProbe.Builder saved = SavedProbe.newBuilder()
                .setSuccess(result.success())
                .setRttNanos(result.rttNanos())
                .setDnsNanos(phases.dnsNanos())
                .setConnectNanos(phases.connectNanos())
                .setProxyHandshakeNanos(phases.proxyHandshakeNanos())
                .setTlsNanos(phases.tlsNanos())
                .setFirstByteNanos(phases.firstByteNanos())
                .setHttpStatus(result.httpStatus())
                .setStartedTime(Timestamps.of(result.startedAt()))
                .setFinishedTime(Timestamps.of(result.finishedAt()));
        ProbeError error = result.error();
        if (error != null) {
            saved.setErrorKind(error.kind().name())
                    .setErrorHop(error.hop().name())
                    .setErrorReason(error.reason());
            if (error.proxyReplyCode() != null) {
                saved.setErrorProxyReplyCode(error.proxyReplyCode()).setHasErrorProxyReplyCode(true);
            }
        }
        return saved.build();
    }

    private static ProbeResult probe(String tag, SavedProbe saved) {
        @Nullable
        ProbeError error = saved.getSuccess()
                ? null
                : new ProbeError(
                        ProbeError.Kind.valueOf(saved.getErrorKind()),
                        ProbeError.Hop.valueOf(saved.getErrorHop()),
                        saved.getErrorReason(),
                        saved.getHasErrorProxyReplyCode() ? saved.getErrorProxyReplyCode() : null);
        return new ProbeResult(
                tag,
                saved.getSuccess(),
                saved.getRttNanos(),
                new ProbePhases(
                        saved.getDnsNanos(),
                        saved.getConnectNanos(),
                        saved.getProxyHandshakeNanos(),
                        saved.getTlsNanos(),
                        saved.getFirstByteNanos()),
                saved.getHttpStatus(),
                Timestamps.instant(saved.getStartedTime()),
                Timestamps.instant(saved.getFinishedTime()),
                error);
    }
}
