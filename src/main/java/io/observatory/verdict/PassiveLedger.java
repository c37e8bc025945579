package io.observatory.verdict;

import io.observatory.text.GoDuration;
import io.observatory.health.CallOutcome;
import io.observatory.health.HealthState;
import io.observatory.health.PassivePolicy;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The passive-policy state of every outbound under one {@link PassivePolicy}. Confined to the verdict writer thread.
 *
 * @param <S> the policy's state type
 */
final class PassiveLedger<S extends PassivePolicy.PassiveState> {

    private final PassivePolicy<S> policy;
    private final Map<String, S> states = new HashMap<>();

    private PassiveLedger(PassivePolicy<S> policy) {
        this.policy = policy;
    }

    /** An empty ledger judging by {@code policy}. */
    static PassiveLedger<?> of(PassivePolicy<?> policy) {
        return typed(policy);
    }

    private static <S extends PassivePolicy.PassiveState> PassiveLedger<S> typed(PassivePolicy<S> policy) {
        return new PassiveLedger<>(policy);
    }

    PassivePolicy<S> policy() {
        return policy;
    }

    /**
     * A ledger judging by {@code next}: with every state of this one when {@code next} is the same kind of policy
     * (only its parameters changed), else empty.
     */
    PassiveLedger<?> withPolicy(PassivePolicy<?> next) {
        PassiveLedger<?> ledger = of(next);
        if (next.getClass() == policy.getClass()) {
            ledger.adopt(states);
        }
        return ledger;
    }

    @SuppressWarnings("unchecked") // withPolicy checked that the policy classes, hence the state types, are equal
    private void adopt(Map<String, ? extends PassivePolicy.PassiveState> previous) {
        previous.forEach((tag, state) -> states.put(tag, (S) state));
    }

    /** Applies one call that ended at {@code nanos} (ticker time). */
    void record(String tag, CallOutcome outcome, long nanos) {
        states.put(tag, policy.next(states.getOrDefault(tag, policy.initial()), outcome, nanos));
    }

    /**
     * Moves every outbound's state to {@code nanos}: reactivation and window expiry.
     *
     * @return the outbounds whose state changed
     */
    Set<String> advance(long nanos) {
        Set<String> changed = new HashSet<>();
        states.replaceAll((tag, state) -> {
            S next = policy.advance(state, nanos);
            if (next != state) {
                changed.add(tag);
            }
            return next;
        });
        return changed;
    }

    /** Forgets outbounds not in {@code tags}. */
    void retain(Set<String> tags) {
        states.keySet().retainAll(tags);
    }

    /** The ticker time of the next reactivation of an UNHEALTHY outbound, if any is UNHEALTHY. */
    OptionalLong nextReactivationNanos() {
        long period = policy.effectiveReactivationPeriod().toNanos();
        return states.values().stream()
                .filter(state -> state.state() == HealthState.UNHEALTHY)
                .mapToLong(state -> state.unhealthySinceNanos() + period)
                .min();
    }

    /** The outbound's passive view with {@code calls} attached. */
    PassiveView view(String tag, CallStatistics calls) {
        S state = states.get(tag);
        if (state == null) {
            return calls == null ? PassiveView.NONE : new PassiveView(HealthState.UNKNOWN, 0, 0, 0, calls);
        }
        return new PassiveView(state.state(), state.windowCalls(), state.windowFailures(), state.consecutiveFailures(),
                calls);
    }

    /** One line on why the outbound's passive state is what it is, for a change from {@code before}. */
    String describe(String tag, HealthState before) {
        S state = states.getOrDefault(tag, policy.initial());
        if (before == HealthState.UNHEALTHY && state.state() == HealthState.UNKNOWN) {
            return "reactivation period " + GoDuration.format(policy.effectiveReactivationPeriod()) + " passed";
        }
        return policy.describe(state);
    }
}
