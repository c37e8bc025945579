package io.observatory.snapshot;

import io.observatory.health.CallOutcome;
import io.observatory.health.HealthState;
import io.observatory.health.PassivePolicy;
import io.observatory.text.GoDuration;
import io.observatory.time.DueQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The passive state of every outbound under one {@link PassivePolicy}, and the statistics of the calls reported for
 * it (silky's endpoint monitor). Each state is indexed by when time alone changes it next
 * ({@link PassivePolicy#nextChangeNanos}) and, while UNHEALTHY, by its reactivation, so that moving to a new time
 * and finding the next reactivation cost what is due, not a visit of every outbound: the writer does both at every
 * publication (measured at 10,000 outbounds with 30 one-second buckets each: 10-15 ms per publication when every
 * state was visited). Confined to the writer; costs one policy state, one {@link CallStatistics} and two
 * {@link DueQueue} entries (about 240 bytes) per outbound with reports, nothing for the others.
 *
 * @param <S> the policy's state type
 */
final class PassiveLedger<S extends PassivePolicy.PassiveState> {

    private final PassivePolicy<S> policy;
    private final Map<String, S> states = new HashMap<>();
    private final Map<String, CallStatistics> calls = new HashMap<>();
    private final DueQueue<String> changes = new DueQueue<>();
    private final DueQueue<String> reactivations = new DueQueue<>();

    private PassiveLedger(PassivePolicy<S> policy) {
        this.policy = policy;
    }

    /** An empty ledger judging by {@code policy}. */
    static PassiveLedger<?> of(PassivePolicy<?> policy) {
        return new PassiveLedger<>(policy);
    }

    PassivePolicy<S> policy() {
        return policy;
    }

    /**
     * A ledger judging by {@code next} with this one's call statistics: with every passive state of this one when
     * {@code next} is the same kind of policy (only its parameters changed), else with none.
     */
    PassiveLedger<?> withPolicy(PassivePolicy<?> next) {
        PassiveLedger<?> ledger = of(next);
        ledger.calls.putAll(calls);
        if (next.getClass() == policy.getClass()) {
            ledger.adopt(states);
        }
        return ledger;
    }

    @SuppressWarnings("unchecked") // withPolicy checked that the policy classes, hence the state types, are equal
    private void adopt(Map<String, ? extends PassivePolicy.PassiveState> previous) {
        previous.forEach((tag, state) -> put(tag, (S) state));
    }

    /** Sets the outbound's state and when time changes it next. */
    private void put(String tag, S state) {
        states.put(tag, state);
        changes.set(tag, policy.nextChangeNanos(state));
        reactivations.set(tag, policy.reactivationNanos(state));
    }

    /**
     * Applies one reported call: the policy counts it at {@code nanos} (its arrival, ticker time), the statistics at
     * the report's own end time.
     */
    void record(PassiveReport report, long nanos) {
        String tag = report.tag();
        put(tag, policy.next(states.getOrDefault(tag, policy.initial()), report.outcome(), nanos));
        CallOutcome outcome = report.outcome();
        calls.merge(
                tag,
                CallStatistics.first(outcome, report.latencyNanos(), report.endedAt()),
                (old, one) -> old.plus(outcome, report.latencyNanos(), report.endedAt()));
    }

    /**
     * Moves every outbound's state to {@code nanos} (reactivation, window expiry), visiting only those due.
     *
     * @return the outbounds whose state changed
     */
    Set<String> advance(long nanos) {
        Set<String> changed = new HashSet<>();
        for (String tag : changes.takeDue(nanos)) {
            S state = states.get(tag);
            if (state == null) {
                continue;
            }
            S next = policy.advance(state, nanos);
            put(tag, next);
            if (next != state) {
                changed.add(tag);
            }
        }
        return changed;
    }

    /** Every outbound's state and call statistics, by tag (either may be absent); copies. */
    List<PassiveEntry> entries() {
        Set<String> tags = new TreeSet<>(states.keySet());
        tags.addAll(calls.keySet());
        List<PassiveEntry> entries = new ArrayList<>(tags.size());
        tags.forEach(
                tag -> entries.add(new PassiveEntry(tag, states.getOrDefault(tag, policy.initial()), calls.get(tag))));
        return entries;
    }

    /**
     * Takes an entry a previous process kept: its call statistics, and its state when it is of this ledger's policy
     * (else the outbound starts at the policy's initial state).
     */
    void restore(PassiveEntry entry) {
        if (entry.calls() != null) {
            calls.put(entry.tag(), entry.calls());
        }
        if (policy.initial().getClass() == entry.state().getClass()) {
            adopt(Map.of(entry.tag(), entry.state()));
        }
    }

    /** Forgets outbounds not in {@code tags}: O(outbounds held). */
    void retain(Set<String> tags) {
        states.keySet().retainAll(tags);
        calls.keySet().retainAll(tags);
        changes.retain(tags);
        reactivations.retain(tags);
    }

    /** The ticker time of the next reactivation of an UNHEALTHY outbound, if any is UNHEALTHY. */
    OptionalLong nextReactivationNanos() {
        long next = reactivations.earliest();
        return next == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(next);
    }

    /** The outbound's passive view: its state (the policy's initial one before any report) and call statistics. */
    PassiveView view(String tag) {
        S state = states.getOrDefault(tag, policy.initial());
        return new PassiveView(
                state.state(),
                state.windowCalls(),
                state.windowFailures(),
                state.consecutiveFailures(),
                calls.get(tag));
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
