package io.observatory.page;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.OutboundStatus;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * One outbound as a row of the status page: about 450 bytes of JSON with a full RTT history, plus the reasons of a
 * failing one (with its cause chain, 100-300 characters each); 100 rows of 10,000 outbounds, a third of them failing,
 * measure 52 KB ({@code StatusPageSizeTest}).
 *
 * @param tag          the outbound's tag
 * @param verdict      the combined verdict: {@code healthy}, {@code degraded}, {@code unhealthy} or {@code unknown}
 * @param active       the active state (probes), same values
 * @param passive      the passive state (reported calls), same values
 * @param alive        Xray's {@code alive}, as the gRPC API reports it
 * @param rtts         the last round-trip times, oldest first, in microseconds, {@code -1} for a failed probe; the
 *                     last is the current one ({@link RttHistory})
 * @param errorKind    the last probe's error kind (e.g. {@code connection_refused}); absent when it succeeded or
 *                     there is none
 * @param error        why the outbound is not usable (Xray's {@code last_error_reason}, or a health source's reason
 *                     for an outbound it measured and keeps out of rotation); absent when empty
 * @param sources      what each health source says of the outbound (e.g. the mesh's, for a hub's entry point), in
 *                     source name order; empty when none has an opinion
 * @param changed      when the verdict or one of the states last changed, unix milliseconds
 * @param changeReason why, e.g. {@code active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms}
 * @param restored     for an active status restored from the state file and not yet replaced by a probe of this
 *                     process: when the previous process measured it, unix milliseconds; absent otherwise
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(SnakeCaseStrategy.class)
record OutboundRow(
        String tag,
        String verdict,
        String active,
        String passive,
        boolean alive,
        RttSamples rtts,
        @Nullable String errorKind,
        @Nullable String error,
        List<Source> sources,
        long changed,
        String changeReason,
        @Nullable Long restored) {

    /** The row of {@code outbound} with its RTT history {@code rtts}. */
    static OutboundRow of(OutboundHealth outbound, RttSamples rtts) {
        OutboundStatus status = outbound.probe();
        ProbeResult probe = status == null ? null : status.lastProbe();
        String error = outbound.lastErrorReason();
        return new OutboundRow(
                outbound.tag(),
                name(outbound.verdict()),
                name(outbound.activeState()),
                name(outbound.passive().state()),
                outbound.alive(),
                rtts,
                probe == null || probe.error() == null
                        ? null
                        : probe.error().kind().label(),
                error.isEmpty() ? null : error,
                outbound.sources().stream()
                        .map(source -> new Source(source.source(), name(source.state()), source.detail()))
                        .toList(),
                outbound.lastChange().toEpochMilli(),
                outbound.lastChangeReason(),
                status == null || status.restoredFrom() == null
                        ? null
                        : status.restoredFrom().toEpochMilli());
    }

    /**
     * One health source's state of the outbound.
     *
     * @param source the source, e.g. {@code mesh}
     * @param state  its state, lower case
     * @param detail why
     */
    record Source(String source, String state, String detail) {}

    /** A state as the page names it: lower case. */
    static String name(HealthState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
