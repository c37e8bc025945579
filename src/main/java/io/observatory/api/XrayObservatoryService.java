package io.observatory.api;

import io.grpc.ServerServiceDefinition;
import io.observatory.api.xray.GetOutboundStatusResponse;
import io.observatory.api.xray.HealthPingMeasurementResult;
import io.observatory.api.xray.ObservationResult;
import io.observatory.api.xray.ObservatoryServiceGrpc;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.HealthPingStats;

/**
 * Xray's {@code xray.core.app.observatory.command.ObservatoryService}: {@code GetOutboundStatus} returns the current
 * observation's observed outbounds with Xray's field meanings and units (delay in milliseconds, times in unix
 * seconds, health-ping figures in nanoseconds), reading the snapshot without locking. The answer is serialized once
 * per snapshot, on the first call after a publication, and every call of the same snapshot gets the same bytes.
 *
 * <p>{@code alive} is the observer's (Xray's rule, or the active check's thresholds when configured), and false while
 * passive health says the outbound is unhealthy; without passive reports it is exactly the observer's.
 */
class XrayObservatoryService implements ObservatoryServiceGrpc.AsyncService {

    private final PerObservation<SerializedMessage> answers;

    XrayObservatoryService(ObservationStore store) {
        this.answers = new PerObservation<>(
                store,
                observation -> SerializedMessage.of(GetOutboundStatusResponse.newBuilder()
                        .setStatus(toProto(observation))
                        .build()));
    }

    /** The generated service with {@code GetOutboundStatus} answered from the current snapshot's bytes. */
    ServerServiceDefinition bindService() {
        return SerializedMethods.rebind(
                ObservatoryServiceGrpc.bindService(this),
                ObservatoryServiceGrpc.getGetOutboundStatusMethod(),
                (request, responses) -> {
                    responses.onNext(answers.get());
                    responses.onCompleted();
                });
    }

    /** Whether the current snapshot's answer is serialized already (a call then only writes its bytes). */
    boolean answerReady() {
        return answers.ready();
    }

    /** Maps a snapshot to Xray's {@code ObservationResult}: one entry per observed outbound, sorted by tag. */
    static ObservationResult toProto(Observation observation) {
        ObservationResult.Builder result = ObservationResult.newBuilder();
        for (OutboundHealth outbound : observation.observed()) {
            OutboundStatus status = outbound.probe();
            io.observatory.api.xray.OutboundStatus.Builder entry = io.observatory.api.xray.OutboundStatus.newBuilder()
                    .setOutboundTag(outbound.tag())
                    .setAlive(outbound.alive())
                    .setDelay(outbound.delayMillis())
                    .setLastErrorReason(outbound.lastErrorReason())
                    .setLastSeenTime(outbound.lastSeenEpochSeconds())
                    .setLastTryTime(outbound.lastTryEpochSeconds());
            if (status != null && status.healthPing() != null) {
                entry.setHealthPing(toProto(status.healthPing()));
            }
            result.addStatus(entry);
        }
        return result.build();
    }

    private static HealthPingMeasurementResult toProto(HealthPingStats stats) {
        return HealthPingMeasurementResult.newBuilder()
                .setAll(stats.all())
                .setFail(stats.fail())
                .setDeviation(stats.deviationNanos())
                .setAverage(stats.averageNanos())
                .setMax(stats.maxNanos())
                .setMin(stats.minNanos())
                .build();
    }
}
