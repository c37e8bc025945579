package io.observatory.api;

import com.google.protobuf.Timestamp;
import io.observatory.api.v1.BurstStatistics;
import io.observatory.api.v1.OutboundChanged;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.api.v1.OutboundRemoved;
import io.observatory.api.v1.PassiveStatistics;
import io.observatory.api.v1.ProbeErrorKind;
import io.observatory.api.v1.ServingEnded;
import io.observatory.api.v1.Snapshot;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.CallStatistics;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.PassiveView;
import io.observatory.snapshot.SourceHealth;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Maps the verdict model to the v1 API's messages ({@code proto/observatory/v1/observatory.proto}). Pure. */
public final class ObservationProtos {

    private ObservationProtos() {}

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
        if (health.probed()) {
            outbound.setDelayMillis(health.delayMillis());
        }
        health.sources().forEach(source -> outbound.addSources(source(source)));
        OutboundStatus probe = health.probe();
        if (probe != null) {
            outbound.setActiveDetail(probe.activeDetail());
            if (probe.restoredFrom() != null) {
                outbound.setRestoredMeasuredTime(timestamp(probe.restoredFrom()));
            }
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

    /** A full observation of the outbounds matching {@code tagPrefixes} (all for none), as a Watch message. */
    static WatchObservationResponse snapshot(Observation observation, List<String> tagPrefixes, boolean resync) {
        Snapshot.Builder snapshot = Snapshot.newBuilder().setResync(resync);
        observation.matching(tagPrefixes).forEach(outbound -> snapshot.addOutbounds(outbound(outbound)));
        return WatchObservationResponse.newBuilder().setSnapshot(snapshot).build();
    }

    /**
     * One transition as a Watch message: {@code changed} with the previous states (unspecified for an outbound just
     * added) and the reason, or {@code removed}.
     */
    static WatchObservationResponse event(OutboundEvent event) {
        WatchObservationResponse.Builder message = WatchObservationResponse.newBuilder();
        if (event instanceof OutboundEvent.Removed removed) {
            message.setRemoved(
                    OutboundRemoved.newBuilder().setTag(removed.tag()).setTime(timestamp(removed.time())));
        } else if (event instanceof OutboundEvent.Updated updated) {
            OutboundHealth before = updated.previous();
            message.setChanged(changed(updated.now())
                    .setPreviousVerdict(state(before.verdict()))
                    .setPreviousActiveState(state(before.activeState()))
                    .setPreviousPassiveState(state(before.passive().state()))
                    .addAllPreviousSources(before.sources().stream()
                            .map(ObservationProtos::source)
                            .toList()));
        } else {
            message.setChanged(changed(((OutboundEvent.Added) event).now()));
        }
        return message.build();
    }

    private static OutboundChanged.Builder changed(OutboundHealth now) {
        return OutboundChanged.newBuilder()
                .setOutbound(outbound(now))
                .setReason(now.lastChangeReason())
                .setTime(timestamp(now.lastChange()));
    }

    /** The last message of every Watch stream at shutdown. */
    static WatchObservationResponse servingEnded(String reason) {
        return WatchObservationResponse.newBuilder()
                .setServingEnded(ServingEnded.newBuilder().setReason(reason))
                .build();
    }

    /** The v1 enum value of a health state (its name with the v1 prefix); never {@code HEALTH_STATE_UNSPECIFIED}. */
    public static io.observatory.api.v1.HealthState state(HealthState state) {
        return io.observatory.api.v1.HealthState.valueOf("HEALTH_STATE_" + state.name());
    }

    /** One health source's state of an outbound. */
    private static io.observatory.api.v1.SourceHealth source(SourceHealth source) {
        return io.observatory.api.v1.SourceHealth.newBuilder()
                .setSource(source.source())
                .setState(state(source.state()))
                .setDetail(source.detail())
                .build();
    }

    /** A wall time as a protobuf timestamp. */
    public static Timestamp timestamp(Instant instant) {
        return Timestamp.newBuilder()
                .setSeconds(instant.getEpochSecond())
                .setNanos(instant.getNano())
                .build();
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
            // The v1 values are the kinds' names with the enum's prefix.
            probe.setErrorKind(ProbeErrorKind.valueOf(
                            "PROBE_ERROR_KIND_" + result.error().kind().name()))
                    .setErrorReason(result.error().reason());
        }
        return probe.build();
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

    /** The call statistics of a passive view that has some. */
    private static PassiveStatistics passive(PassiveView view) {
        CallStatistics calls = Objects.requireNonNull(view.calls(), "checked by the caller");
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
