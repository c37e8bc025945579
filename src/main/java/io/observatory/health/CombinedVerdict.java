package io.observatory.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Combines the independent active, passive and mesh states of one outbound into the verdict balancers act on (YARP
 * keeps active and passive health apart and excludes a destination if any enabled check says it is unhealthy; Envoy
 * uses a degraded host only when no healthy one is left), and says why a state changed.
 */
public final class CombinedVerdict {

    private CombinedVerdict() {}

    /**
     * The worst state any check has an opinion on: {@link HealthState#UNHEALTHY} if any check says so, else
     * {@link HealthState#DEGRADED} if any says so, else {@link HealthState#HEALTHY} if any says so, else
     * {@link HealthState#UNKNOWN}. Pass UNKNOWN for a check that is disabled: it then never decides the verdict.
     *
     * @param active  the active (probe) state
     * @param passive the passive (reported call) state
     * @param mesh    the mesh state (a hub's entry points); UNKNOWN elsewhere
     */
    public static HealthState of(HealthState active, HealthState passive, HealthState mesh) {
        for (HealthState worst : List.of(HealthState.UNHEALTHY, HealthState.DEGRADED, HealthState.HEALTHY)) {
            if (active == worst || passive == worst || mesh == worst) {
                return worst;
            }
        }
        return HealthState.UNKNOWN;
    }

    /**
     * Why the active, passive or mesh state changed, as log lines and watch events say it, e.g.
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
     * @param check  {@code active}, {@code passive} or {@code mesh}
     * @param why    the evidence; asked only when the state changed
     */
    public record Change(String check, HealthState before, HealthState after, Supplier<String> why) {}

    /** A state as log lines and reasons write it: {@code healthy}, {@code unhealthy}, {@code unknown}, {@code degraded}. */
    public static String word(HealthState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
