package io.observatory.snapshot;

import io.observatory.health.HealthState;
import io.observatory.health.PassivePolicy;
import io.observatory.time.Scheduler;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The passive side of the verdicts (YARP's passive health policy with its health updater): applies reported call
 * outcomes to the {@link PassiveLedger}, follows a change of the passive policy, and schedules the next reactivation
 * check on the writer, so that an unhealthy passive state returns to unknown on time without new evidence. Confined
 * to the writer.
 */
final class PassiveHealthUpdater {

    private static final Logger log = LoggerFactory.getLogger(PassiveHealthUpdater.class);

    private final Scheduler writer;
    private final Runnable onReactivation;
    private PassiveLedger<?> ledger;
    // Outbounds whose passive state or call statistics changed since the last drain.
    private final Set<String> touched = new HashSet<>();
    // Why every passive state starts over (a different policy), until the next drain; else null.
    private @Nullable String restartReason;
    // The configured outbounds the ledger was last trimmed to: the caller hands a new set only when they change.
    private @Nullable Set<String> retained;
    private Scheduler.Cancellable reactivation = () -> {};
    private long scheduledReactivationNanos = Long.MAX_VALUE;

    /**
     * @param policy         the passive policy at start-up
     * @param writer         where reactivation checks run, and its ticker
     * @param onReactivation what a reactivation check runs: the observation's refresh
     */
    PassiveHealthUpdater(PassivePolicy<?> policy, Scheduler writer, Runnable onReactivation) {
        this.ledger = PassiveLedger.of(policy);
        this.writer = writer;
        this.onReactivation = onReactivation;
    }

    /** Applies reports of configured outbounds, in order; each call counts at {@code nowNanos}, its arrival. */
    void record(List<PassiveReport> reports, Set<String> configured, long nowNanos) {
        for (PassiveReport report : reports) {
            if (configured.contains(report.tag())) {
                ledger.record(report, nowNanos);
                touched.add(report.tag());
            }
        }
    }

    /**
     * Follows a reloaded passive policy: new parameters of the same policy keep every outbound's passive state; a
     * different policy starts every passive state over at UNKNOWN. Call statistics stay either way.
     */
    void reconfigure(PassivePolicy<?> policy, Set<String> configured) {
        if (policy.equals(ledger.policy())) {
            return;
        }
        boolean sameKind = policy.getClass() == ledger.policy().getClass();
        log.info(
                "passive policy {} {}",
                policy.name(),
                sameKind
                        ? "has new parameters: passive states kept"
                        : "replaces " + ledger.policy().name() + ": passive states start over at unknown");
        ledger = ledger.withPolicy(policy);
        touched.addAll(configured);
        if (!sameKind) {
            restartReason = "passive policy changed to " + policy.name();
        }
    }

    /**
     * Moves every state to {@code nowNanos} (reactivation, window expiry), forgets outbounds no longer configured (when
     * {@code configured} is another set than at the last call: O(outbounds) then, else O(what is due)) and hands over
     * the outbounds touched since the last call.
     *
     * @return the outbounds whose passive view changed; the caller reads their views and reasons before calling again
     */
    Set<String> drain(Set<String> configured, long nowNanos) {
        touched.addAll(ledger.advance(nowNanos));
        if (configured != retained) {
            ledger.retain(configured);
            retained = configured;
        }
        Set<String> changed = Set.copyOf(touched);
        touched.clear();
        return changed;
    }

    /** Every outbound's passive state and call statistics. */
    List<PassiveEntry> entries() {
        return ledger.entries();
    }

    /** The name of the policy in force, e.g. {@code consecutive-failures}. */
    String policyName() {
        return ledger.policy().name();
    }

    /** Takes a previous process's entries of configured outbounds (states of another policy are not taken). */
    void restore(List<PassiveEntry> entries, Set<String> configured) {
        for (PassiveEntry entry : entries) {
            if (configured.contains(entry.tag())) {
                ledger.restore(entry);
                touched.add(entry.tag());
            }
        }
    }

    /** The outbound's passive view. */
    PassiveView view(String tag) {
        return ledger.view(tag);
    }

    /** Why the outbound's passive state changed from {@code before}, for the change reason. */
    String why(String tag, HealthState before) {
        return restartReason != null ? restartReason : ledger.describe(tag, before);
    }

    /** Ends the grace of {@link #why}'s restart reason and schedules the next reactivation check. */
    void settle(long nowNanos) {
        restartReason = null;
        OptionalLong next = ledger.nextReactivationNanos();
        long at = next.orElse(Long.MAX_VALUE);
        if (at == scheduledReactivationNanos) {
            return;
        }
        reactivation.cancel();
        scheduledReactivationNanos = at;
        if (next.isPresent()) {
            reactivation = writer.schedule(Duration.ofNanos(Math.max(0, at - nowNanos)), () -> {
                scheduledReactivationNanos = Long.MAX_VALUE;
                onReactivation.run();
            });
        }
    }
}
