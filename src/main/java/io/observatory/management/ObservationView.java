package io.observatory.management;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The JSON body of the {@code observatory} endpoint: Xray's {@code ObservationResult} with its snake_case field names
 * and units (and its {@code alive} rule, as the gRPC API applies it), each outbound's verdict, and the last probe of
 * each standard-observer outbound; then one member per capability part that has something to show ({@link PartView}),
 * e.g. {@code mesh} on a hub.
 *
 * @param status one entry per observed outbound, sorted by tag
 * @param parts  the capabilities' members, by part name, in the order of the views
 */
record ObservationView(List<Outbound> status, @JsonAnyGetter Map<String, Object> parts) {

    /** Maps the observed outbounds of a snapshot, in its order (by tag), and the parts {@code views} show. */
    static ObservationView of(Observation observation, List<PartView<?, ?>> views) {
        Map<String, Object> parts = new LinkedHashMap<>();
        views.forEach(view -> {
            Object json = member(view, observation);
            if (json != null) {
                parts.put(view.part().name(), json);
            }
        });
        return new ObservationView(
                observation.observed().stream().map(Outbound::of).toList(), parts);
    }

    private static <T> @Nullable Object member(PartView<T, ?> view, Observation observation) {
        return view.endpointJson(observation.part(view.part()));
    }

    /**
     * One outbound, as Xray's {@code OutboundStatus}.
     *
     * @param outboundTag the outbound's tag
     * @param alive usable now
     * @param delay milliseconds: the last RTT (standard), {@code 99999999} when the last probe failed, the average RTT
     *     (burst)
     * @param lastErrorReason why the last probe failed; empty when alive and always for burst
     * @param lastSeenTime unix seconds of the last success, 0 if never (always 0 for burst)
     * @param lastTryTime unix seconds of the last attempt, 0 if none (always 0 for burst)
     * @param healthPing burst statistics, absent for the standard observer
     * @param lastProbe the last probe, absent for burst
     * @param verdict the combined verdict: {@code healthy}, {@code degraded}, {@code unhealthy} or {@code unknown}
     * @param restoredFrom set while the status is one restored from the state file and not yet replaced by a probe
     *     of this process: when the previous process measured it
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    record Outbound(
            String outboundTag,
            boolean alive,
            long delay,
            String lastErrorReason,
            long lastSeenTime,
            long lastTryTime,
            @Nullable HealthPing healthPing,
            @Nullable LastProbe lastProbe,
            String verdict,
            @Nullable Instant restoredFrom) {

        static Outbound of(OutboundHealth outbound) {
            OutboundStatus status = outbound.probe();
            return new Outbound(
                    outbound.tag(),
                    outbound.alive(),
                    outbound.delayMillis(),
                    outbound.lastErrorReason(),
                    outbound.lastSeenEpochSeconds(),
                    outbound.lastTryEpochSeconds(),
                    status == null || status.healthPing() == null ? null : HealthPing.of(status.healthPing()),
                    status == null || status.lastProbe() == null ? null : LastProbe.of(status.lastProbe()),
                    outbound.verdict().name().toLowerCase(Locale.ROOT),
                    status == null ? null : status.restoredFrom());
        }
    }

    /**
     * Burst statistics over the valid samples, as Xray's {@code HealthPingMeasurementResult}; durations in nanoseconds.
     *
     * @param all valid samples
     * @param fail failed samples among them
     * @param deviation population standard deviation of the successful RTTs
     * @param average average RTT
     * @param max longest RTT
     * @param min shortest RTT
     */
    record HealthPing(long all, long fail, long deviation, long average, long max, long min) {

        static HealthPing of(HealthPingStats stats) {
            return new HealthPing(
                    stats.all(),
                    stats.fail(),
                    stats.deviationNanos(),
                    stats.averageNanos(),
                    stats.maxNanos(),
                    stats.minNanos());
        }
    }

    /**
     * The last probe of a standard-observer outbound (not part of Xray's contract).
     *
     * @param success an HTTP response arrived
     * @param rttNanos RTT in nanoseconds; on failure, the time until the failure was noticed
     * @param httpStatus the response's status, absent when none arrived
     * @param phasesNanos the measured phases in nanoseconds, keyed {@code dns}, {@code connect},
     *     {@code proxy_handshake}, {@code tls}, {@code first_byte}
     * @param errorKind the failure's {@link ProbeError.Kind#label()}, absent on success
     * @param errorHop the failing hop, {@code proxy} or {@code target}, absent on success
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    record LastProbe(
            boolean success,
            long rttNanos,
            @Nullable Integer httpStatus,
            Map<String, Long> phasesNanos,
            @Nullable String errorKind,
            @Nullable String errorHop) {

        static LastProbe of(ProbeResult result) {
            ProbeError error = result.error();
            return new LastProbe(
                    result.success(),
                    result.rttNanos(),
                    result.httpStatus() == 0 ? null : result.httpStatus(),
                    result.phases().measured(),
                    error == null ? null : error.kind().label(),
                    error == null ? null : error.hop().label());
        }
    }
}
