package io.observatory.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Combines the independent active and passive states of one outbound into the verdict balancers act on (YARP keeps
 * active and passive health apart and excludes a destination if any enabled check says it is unhealthy), and says
 * why a state changed.
 */
public final class CombinedVerdict {

    private CombinedVerdict() {
    }

    /**
     * {@link HealthState#UNHEALTHY} if either check says so, {@link HealthState#HEALTHY} if either says healthy and
     * none unhealthy, else {@link HealthState#UNKNOWN}. Pass UNKNOWN for a check that is disabled: it then never
     * decides the verdict.
     *
     * @param active  the active (probe) state
     * @param passive the passive (reported call) state
     */
    public static HealthState of(HealthState active, HealthState passive) {
        if (active == HealthState.UNHEALTHY || passive == HealthState.UNHEALTHY) {
            return HealthState.UNHEALTHY;
        }
        if (active == HealthState.HEALTHY || passive == HealthState.HEALTHY) {
            return HealthState.HEALTHY;
        }
        return HealthState.UNKNOWN;
    }

    /**
     * Why the active or passive state changed, as log lines and watch events say it, e.g.
     * {@code active unknown -> healthy: probe succeeded: HTTP 204 in 12 ms} or, when both changed, both parts joined
     * by {@code "; "}.
     *
     * @param activeWhy  the active evidence; asked only when the active state changed
     * @param passiveWhy the passive evidence; asked only when the passive state changed
     * @return the reason, or {@code null} when neither state changed
     */
    public static @Nullable String changeReason(HealthState activeBefore, HealthState active,
            Supplier<String> activeWhy, HealthState passiveBefore, HealthState passive, Supplier<String> passiveWhy) {
        List<String> reasons = new ArrayList<>(2);
        if (active != activeBefore) {
            reasons.add("active " + word(activeBefore) + " -> " + word(active) + ": " + activeWhy.get());
        }
        if (passive != passiveBefore) {
            reasons.add("passive " + word(passiveBefore) + " -> " + word(passive) + ": " + passiveWhy.get());
        }
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    /** A state as log lines and reasons write it: {@code healthy}, {@code unhealthy}, {@code unknown}. */
    public static String word(HealthState state) {
        return state.name().toLowerCase(Locale.ROOT);
    }
}
