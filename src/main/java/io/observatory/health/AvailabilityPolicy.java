package io.observatory.health;

import java.util.List;
import java.util.function.Function;

/**
 * Builds the set of usable outbounds from their combined verdicts (YARP's available-destinations policies). Both
 * policies exclude outbounds whose verdict is {@link HealthState#UNHEALTHY}; UNKNOWN outbounds stay usable;
 * {@link HealthState#DEGRADED} ones are usable only when no healthy or unknown outbound is left (Envoy's degraded
 * hosts).
 */
public sealed interface AvailabilityPolicy {

    /** YARP's {@code HealthyAndUnknown}. */
    AvailabilityPolicy HEALTHY_AND_UNKNOWN = new HealthyAndUnknown();

    /**
     * The usable outbounds of a selection.
     *
     * @param <T>       how an outbound is represented
     * @param selection the outbounds to choose from, in the order the result keeps
     * @param verdict   an outbound's combined verdict
     */
    <T> Availability<T> select(List<T> selection, Function<? super T, HealthState> verdict);

    /** The healthy and unknown outbounds, or, when there are none, the degraded ones. */
    private static <T> List<T> notUnhealthy(List<T> selection, Function<? super T, HealthState> verdict) {
        List<T> preferred = selection.stream()
                .filter(outbound -> {
                    HealthState state = verdict.apply(outbound);
                    return state == HealthState.HEALTHY || state == HealthState.UNKNOWN;
                })
                .toList();
        return !preferred.isEmpty()
                ? preferred
                : selection.stream()
                        .filter(outbound -> verdict.apply(outbound) == HealthState.DEGRADED)
                        .toList();
    }

    /**
     * YARP's {@code HealthyOrPanic} with Envoy's panic threshold ({@code healthy-or-panic}): the healthy and unknown
     * outbounds (the degraded ones when there are none), unless a non-empty selection has none of them (YARP) or
     * {@code notUnhealthy * 100 < panicThresholdPercent * selection.size()}, counting degraded outbounds too (Envoy);
     * then every outbound, in panic.
     *
     * @param panicThresholdPercent 0-100, validated where it is configured; {@code 0} keeps only YARP's rule
     */
    record HealthyOrPanic(int panicThresholdPercent) implements AvailabilityPolicy {

        @Override
        public <T> Availability<T> select(List<T> selection, Function<? super T, HealthState> verdict) {
            List<T> usable = notUnhealthy(selection, verdict);
            // Degraded outbounds count towards the threshold, as Envoy counts degraded hosts, even when healthy ones
            // are preferred to them.
            long notUnhealthy = selection.stream()
                    .filter(outbound -> verdict.apply(outbound) != HealthState.UNHEALTHY)
                    .count();
            boolean panic = !selection.isEmpty()
                    && (usable.isEmpty() || notUnhealthy * 100 < (long) panicThresholdPercent * selection.size());
            return panic ? new Availability<>(selection, true) : new Availability<>(usable, false);
        }
    }

    /**
     * YARP's {@code HealthyAndUnknown} ({@code healthy-and-unknown}): healthy and unknown outbounds (the degraded ones
     * when there are none), maybe none.
     */
    record HealthyAndUnknown() implements AvailabilityPolicy {

        @Override
        public <T> Availability<T> select(List<T> selection, Function<? super T, HealthState> verdict) {
            return new Availability<>(notUnhealthy(selection, verdict), false);
        }
    }
}
