package io.observatory.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Combines the independent states of one outbound — active, passive, and each health source a capability registers
 * (the mesh's) — into the verdict balancers act on (Envoy's host health flags: each source sets its own and any
 * failing one excludes the host; YARP keeps active and passive health apart and excludes a destination if any enabled
 * check says it is unhealthy; Envoy uses a degraded host only when no healthy one is left), and says why a state
 * changed.
 */
public final class CombinedVerdict {

    private CombinedVerdict() {}

    /**
     * The worst state any check has an opinion on: {@link HealthState#UNHEALTHY} if any check says so, else
     * {@link HealthState#DEGRADED} if any says so, else {@link HealthState#HEALTHY} if any says so, else
     * {@link HealthState#UNKNOWN}. Pass UNKNOWN for a check that is disabled or has no opinion: it then never
     * decides the verdict.
     *
     * @param states the active state, the passive state and each source's state, in any order
     */
    public static HealthState of(HealthState... states) {
        return of(List.of(states));
    }

    /** {@link #of(HealthState...)} of a list. */
    public static HealthState of(List<HealthState> states) {
        for (HealthState worst : List.of(HealthState.UNHEALTHY, HealthState.DEGRADED, HealthState.HEALTHY)) {
            if (states.contains(worst)) {
                return worst;
            }
        }
        return HealthState.UNKNOWN;
    }

    /**
     * Why the active, passive or a source's state changed, as log lines and watch events say it, e.g.
     * {@code active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms} or, when several changed, their parts
     * joined by {@code "; "}.
     *
     * @param changes one per check, in the order to report them
     * @return the reason, or {@code null} when no state changed
     */
    public static @Nullable String changeReason(List<Change> changes) {
        List<String> reasons = new ArrayList<>(changes.size());
        for (Change change : changes) {
            if (change.after() != change.before()) {
                reasons.add(change.check() + " " + word(change.before()) + " -> " + word(change.after()) + ": "
                        + change.why().get());
            }
        }
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    /**
     * One check's state before and after an update.
     *
     * @param check  {@code active}, {@code passive} or a health source's name, e.g. {@code mesh}
     * @param why    the evidence; asked only when the state changed
     */
    public record Change(String check, HealthState before, HealthState after, Supplier<String> why) {}

    /** A state as log lines and reasons write it: {@code healthy}, {@code unhealthy}, {@code unknown}, {@code degraded}. */
    public static String word(HealthState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
