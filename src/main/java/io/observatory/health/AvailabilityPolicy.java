package io.observatory.health;

import java.util.List;
import java.util.function.Function;

/**
 * Builds the set of usable outbounds from their combined verdicts (YARP's available-destinations policies). Both
 * policies exclude only outbounds whose verdict is {@link HealthState#UNHEALTHY}; UNKNOWN outbounds stay usable.
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

    private static <T> List<T> notUnhealthy(List<T> selection, Function<? super T, HealthState> verdict) {
        return selection.stream().filter(outbound -> verdict.apply(outbound) != HealthState.UNHEALTHY).toList();
    }

    /**
     * YARP's {@code HealthyOrPanic} with Envoy's panic threshold ({@code healthy-or-panic}): the healthy and unknown
     * outbounds, unless a non-empty selection has none of them (YARP) or
     * {@code usable * 100 < panicThresholdPercent * selection.size()} (Envoy); then every outbound, in panic.
     *
     * @param panicThresholdPercent 0-100, validated where it is configured; {@code 0} keeps only YARP's rule
     */
    record HealthyOrPanic(int panicThresholdPercent) implements AvailabilityPolicy {

        @Override
        public <T> Availability<T> select(List<T> selection, Function<? super T, HealthState> verdict) {
            List<T> usable = notUnhealthy(selection, verdict);
            boolean panic = !selection.isEmpty() && (usable.isEmpty()
                    || (long) usable.size() * 100 < (long) panicThresholdPercent * selection.size());
            return panic ? new Availability<>(selection, true) : new Availability<>(usable, false);
        }
    }

    /** YARP's {@code HealthyAndUnknown} ({@code healthy-and-unknown}): healthy and unknown outbounds, maybe none. */
    record HealthyAndUnknown() implements AvailabilityPolicy {

        @Override
        public <T> Availability<T> select(List<T> selection, Function<? super T, HealthState> verdict) {
            return new Availability<>(notUnhealthy(selection, verdict), false);
        }
    }
}
