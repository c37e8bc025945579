package io.observatory.api;

import com.google.protobuf.Timestamp;
import io.observatory.api.v1.BurstStatistics;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.api.v1.PassiveStatistics;
import io.observatory.api.v1.ProbeErrorKind;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import io.observatory.status.OutboundStatus;
import io.observatory.verdict.CallStatistics;
import io.observatory.verdict.OutboundHealth;
import io.observatory.verdict.PassiveView;
import java.time.Instant;

/** Maps the verdict model to the v1 API's messages ({@code proto/observatory/v1/observatory.proto}). Pure. */
public final class ObservationProtos {

    private ObservationProtos() {
    }

    /** One outbound with its states, probe evidence, burst and passive statistics and last change. */
    public static OutboundObservation outbound(OutboundHealth health) {
        OutboundObservation.Builder outbound = OutboundObservation.newBuilder()
                .setTag(health.tag())
                .setActiveState(state(health.activeState()))
                .setPassiveState(state(health.passive().state()))
                .setVerdict(state(health.verdict()))
                .setAlive(health.alive())
                .setProbed(health.probed())
                .setLastChangeTime(timestamp(health.lastChange()))
                .setLastChangeReason(health.lastChangeReason());
        OutboundStatus probe = health.probe();
        if (probe != null) {
            outbound.setDelayMillis(probe.delayMillis()).setActiveDetail(probe.activeDetail());
            if (probe.lastProbe() != null) {
                outbound.setLastProbe(probe(probe.lastProbe()));
            }
            if (probe.healthPing() != null) {
                outbound.setBurst(burst(probe.healthPing()));
            }
        }
        if (health.passive().calls() != null) {
            outbound.setPassive(passive(health.passive()));
        }
        return outbound.build();
    }

    /** The v1 enum value of a health state; never {@code HEALTH_STATE_UNSPECIFIED}. */
    public static io.observatory.api.v1.HealthState state(HealthState state) {
        return switch (state) {
            case UNKNOWN -> io.observatory.api.v1.HealthState.HEALTH_STATE_UNKNOWN;
            case HEALTHY -> io.observatory.api.v1.HealthState.HEALTH_STATE_HEALTHY;
            case UNHEALTHY -> io.observatory.api.v1.HealthState.HEALTH_STATE_UNHEALTHY;
        };
    }

    /** A wall time as a protobuf timestamp. */
    public static Timestamp timestamp(Instant instant) {
        return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
    }

    private static io.observatory.api.v1.ProbeResult probe(ProbeResult result) {
        ProbePhases phases = result.phases();
        io.observatory.api.v1.ProbeResult.Builder probe = io.observatory.api.v1.ProbeResult.newBuilder()
                .setSuccess(result.success())
                .setRttNanos(result.rttNanos())
                .setHttpStatus(result.httpStatus())
                .setDnsNanos(phases.dnsNanos())
                .setConnectNanos(phases.connectNanos())
                .setProxyHandshakeNanos(phases.proxyHandshakeNanos())
                .setTlsNanos(phases.tlsNanos())
                .setFirstByteNanos(phases.firstByteNanos());
        if (result.startedAt() != null) {
            probe.setStartedTime(timestamp(result.startedAt()));
        }
        if (result.error() != null) {
            probe.setErrorKind(errorKind(result.error().kind())).setErrorReason(result.error().reason());
        }
        return probe.build();
    }

    private static ProbeErrorKind errorKind(ProbeError.Kind kind) {
        return ProbeErrorKind.valueOf("PROBE_ERROR_KIND_" + kind.name());
    }

    private static BurstStatistics burst(HealthPingStats stats) {
        return BurstStatistics.newBuilder()
                .setAll(stats.all())
                .setFail(stats.fail())
                .setDeviationNanos(stats.deviationNanos())
                .setAverageNanos(stats.averageNanos())
                .setMaxNanos(stats.maxNanos())
                .setMinNanos(stats.minNanos())
                .build();
    }

    private static PassiveStatistics passive(PassiveView view) {
        CallStatistics calls = view.calls();
        return PassiveStatistics.newBuilder()
                .setTotalCalls(calls.totalCalls())
                .setFailedCalls(calls.failedCalls())
                .setAverageLatencyNanos(calls.averageLatencyNanos())
                .setFirstCallTime(timestamp(calls.firstCall()))
                .setLastCallTime(timestamp(calls.lastCall()))
                .setWindowCalls(view.windowCalls())
                .setWindowFailures(view.windowFailures())
                .setConsecutiveFailures(view.consecutiveFailures())
                .build();
    }
}
