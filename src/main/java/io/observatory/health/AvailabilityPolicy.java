package io.observatory.health;

import java.util.List;
import java.util.function.Function;

/**
 * Builds the set of usable outbounds from their combined verdicts (YARP's availability policies, named
 * {@code healthy-and-unknown} and {@code healthy-or-panic}; default {@link #HEALTHY_OR_PANIC}). Both policies exclude
 * only outbounds whose verdict is {@link HealthState#UNHEALTHY}; UNKNOWN outbounds stay usable.
 */
public enum AvailabilityPolicy {

    /** YARP's {@code HealthyAndUnknown}: the healthy and unknown outbounds, possibly none; never in panic. */
    HEALTHY_AND_UNKNOWN,

    /**
     * YARP's {@code HealthyOrPanic} with Envoy's panic threshold: the healthy and unknown outbounds, unless they are
     * none or their share of the selection is below the panic threshold; then every outbound, in panic.
     */
    HEALTHY_OR_PANIC;

    /**
     * The usable outbounds of a selection.
     *
     * @param <T>                   how an outbound is represented
     * @param selection             the outbounds to choose from, in the order the result keeps
     * @param verdict               an outbound's combined verdict
     * @param panicThresholdPercent 0-100; for {@link #HEALTHY_OR_PANIC}, panic when
     *                              {@code usable * 100 < panicThresholdPercent * selection.size()} (Envoy), and always
     *                              when nothing is usable in a non-empty selection (YARP), so {@code 0} keeps only
     *                              YARP's rule. Ignored by {@link #HEALTHY_AND_UNKNOWN}.
     * @throws IllegalArgumentException if {@code panicThresholdPercent} is outside 0-100
     */
    public <T> Availability<T> select(List<T> selection, Function<? super T, HealthState> verdict,
            int panicThresholdPercent) {
        if (panicThresholdPercent < 0 || panicThresholdPercent > 100) {
            throw new IllegalArgumentException(
                    "panic-threshold: " + panicThresholdPercent + " (expected: 0-100)");
        }
        List<T> usable =
                selection.stream().filter(outbound -> verdict.apply(outbound) != HealthState.UNHEALTHY).toList();
        if (this == HEALTHY_AND_UNKNOWN || selection.isEmpty()) {
            return new Availability<>(usable, false);
        }
        boolean panic = usable.isEmpty()
                || (long) usable.size() * 100 < (long) panicThresholdPercent * selection.size();
        return panic ? new Availability<>(selection, true) : new Availability<>(usable, false);
    }
}
