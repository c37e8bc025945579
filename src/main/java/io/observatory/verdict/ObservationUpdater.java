package io.observatory.verdict;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.CombinedVerdict;
import io.observatory.health.HealthState;
import io.observatory.reload.Reconfigurable;
import io.observatory.status.MeshMark;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.ObservationUpdate;
import io.observatory.status.OutboundEvent;
import io.observatory.status.OutboundHealth;
import io.observatory.status.OutboundStatus;
import io.observatory.status.PassiveView;
import io.observatory.status.StatusSink;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The writer's updater of the one {@link Observation} (YARP's destinations updater): takes the observer's statuses,
 * the passive evidence ({@link PassiveHealthUpdater}) and configuration changes, judges each changed outbound's
 * verdict ({@link CombinedVerdict}) and publishes the whole snapshot with the changes that led to it. Every method
 * that changes state runs on the writer, so there are no locks; readers read the {@link #store()}.
 *
 * <p>A publication re-judges only the outbounds whose observer status, passive view or mesh mark changed, and the
 * others keep their entry (same object), so it costs O(changes) plus a copy of the snapshot's entry array; only a
 * configuration change walks every outbound. Costs one status and one map entry per configured outbound.
 */
public final class ObservationUpdater implements Reconfigurable, StatusSink {

    private final Scheduler writer;
    private final Clock clock;
    private final PassiveHealthUpdater passive;
    /** Reports waiting for the writer at most: ten full requests, about 6 MB. */
    public static final int MAX_PENDING_REPORTS = 100_000;

    private final ObservationStore store;
    // Reports queued for the writer and not applied yet: any thread adds, the writer subtracts.
    private final AtomicInteger pendingReports = new AtomicInteger();
    // Writer state below.
    private Set<String> tags;
    private AvailabilityPolicy availability;
    private final Map<String, OutboundStatus> statuses = new HashMap<>();
    private Map<String, MeshMark> meshMarks = Map.of();
    private OptionalLong observedAtNanos = OptionalLong.empty();

    /**
     * Builds the first observation, every configured outbound UNKNOWN, which readers see from now on.
     *
     * @param initial the configuration validated at start-up: outbounds, passive policy, availability
     * @param writer  the writer and its ticker; passive windows and reactivation run on its time
     * @param clock   wall clock for change times
     */
    public ObservationUpdater(ObservatoryConfig initial, Scheduler writer, Clock clock) {
        this.writer = writer;
        this.clock = clock;
        this.tags = tagsOf(initial);
        this.availability = initial.availability().policy();
        this.passive = new PassiveHealthUpdater(initial.passive().policy(), writer, () -> refresh(Set.of()));
        Instant now = clock.instant();
        Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
        tags.forEach(tag -> outbounds.put(tag, judge(tag, null, null, null, now)));
        this.store = new ObservationStore(writer, new Observation(outbounds, availability, observedAtNanos));
        store.watch(observation -> {}, new TransitionLog());
    }

    /** Where the observation is published and read. */
    public ObservationStore store() {
        return store;
    }

    /**
     * Takes what changed in the active observer's statuses since its last publication — the new or changed statuses
     * and the tags it no longer observes — and publishes them with the verdicts; the observer coalesces its bursts of
     * results into one call. Re-judges only those outbounds, so a publication costs O(changes) (plus a copy of the
     * snapshot's entry array). Writer only.
     */
    @Override
    public void changed(Collection<OutboundStatus> changed, Collection<String> gone) {
        Set<String> touched = new HashSet<>(gone);
        gone.forEach(statuses::remove);
        for (OutboundStatus status : changed) {
            statuses.put(status.tag(), status);
            touched.add(status.tag());
        }
        observedAtNanos = OptionalLong.of(writer.nanoTime());
        refresh(touched);
    }

    /**
     * Takes the mesh's marks of a hub's entry points, by tag ({@code <server>/<entry>}), and publishes them with the
     * verdicts; an entry point without a mark has no mesh opinion. Writer only.
     */
    public void meshJudged(Map<String, MeshMark> marks) {
        Set<String> touched = new HashSet<>();
        marks.forEach((tag, mark) -> {
            if (!mark.equals(meshMarks.get(tag))) {
                touched.add(tag);
            }
        });
        meshMarks.keySet().stream().filter(tag -> !marks.containsKey(tag)).forEach(touched::add);
        meshMarks = Map.copyOf(marks);
        refresh(touched);
    }

    /**
     * Applies reported call outcomes, in order, on the writer, then publishes once. The passive policy counts each
     * call when its report is applied (its windows and reactivation run on arrival time, which only moves forward);
     * the call's own end time goes into the call statistics. Reports for tags that are no longer configured by then
     * are dropped. Any thread.
     *
     * @return {@code false}, queueing nothing, when {@value #MAX_PENDING_REPORTS} reports would then wait for the
     *         writer: the caller is to refuse them, so that clients reporting faster than the writer applies cannot
     *         exhaust the heap
     */
    public boolean report(List<PassiveReport> reports) {
        List<PassiveReport> batch = List.copyOf(reports);
        if (pendingReports.addAndGet(batch.size()) > MAX_PENDING_REPORTS) {
            pendingReports.addAndGet(-batch.size());
            return false;
        }
        writer.execute(() -> {
            pendingReports.addAndGet(-batch.size());
            passive.record(batch, tags, writer.nanoTime());
            refresh(Set.of());
        });
        return true;
    }

    /**
     * Every outbound's passive state and call statistics, with the name of the policy they are states of: what the
     * state file keeps of the passive side. Writer only; O(outbounds with reports).
     */
    public PassiveEntries passiveEntries() {
        return new PassiveEntries(passive.policyName(), passive.entries());
    }

    /**
     * The passive side as {@link #passiveEntries} returned it.
     *
     * @param policy  the passive policy's name, e.g. {@code consecutive-failures}
     * @param entries by tag
     */
    public record PassiveEntries(String policy, List<PassiveEntry> entries) {

        public PassiveEntries {
            entries = List.copyOf(entries);
        }
    }

    /**
     * Takes the passive states and call statistics a previous process kept (the state file), their times already on
     * this process's ticker, and publishes them with the verdicts: call statistics always, states only of the policy
     * in force. Writer only.
     */
    public void restorePassive(List<PassiveEntry> entries) {
        passive.restore(entries, tags);
        refresh(Set.of());
    }

    /**
     * Applies a reloaded configuration: the set of outbounds (the observer status of a removed one is dropped, so
     * one added again starts unknown), the availability policy and the passive policy (see
     * {@link PassiveHealthUpdater#reconfigure}). Writer only.
     */
    @Override
    public void reconfigure(ObservatoryConfig next) {
        tags = tagsOf(next);
        statuses.keySet().retainAll(tags);
        availability = next.availability().policy();
        passive.reconfigure(next.passive().policy(), tags);
        refreshAll();
    }

    /**
     * Re-judges the outbounds in {@code touched} and those whose passive state moved, and publishes the snapshot with
     * the changes: O(those outbounds). Publishes nothing when no entry changed and the observer published nothing
     * new (a report for an outbound no longer configured, a reactivation check that reactivates nobody). The set of configured outbounds must be the snapshot's ({@link #refreshAll}
     * otherwise); a touched tag that is not configured is skipped.
     */
    private void refresh(Set<String> touched) {
        long nowNanos = writer.nanoTime();
        Instant now = clock.instant();
        Set<String> dirty = new TreeSet<>(touched);
        dirty.addAll(passive.drain(tags, nowNanos));
        Observation previous = store.current();
        List<OutboundHealth> changed = new ArrayList<>(dirty.size());
        List<OutboundEvent> events = new ArrayList<>(dirty.size());
        for (String tag : dirty) {
            OutboundHealth before = previous.get(tag).orElse(null);
            if (before == null) {
                continue;
            }
            OutboundHealth health = judge(tag, statuses.get(tag), meshMarks.get(tag), before, now);
            if (!health.equals(before)) {
                changed.add(health);
                events.add(new OutboundEvent.Updated(before, health));
            }
        }
        passive.settle(nowNanos);
        if (changed.isEmpty() && previous.observedAtNanos().equals(observedAtNanos)) {
            return;
        }
        store.publish(new ObservationUpdate(previous.with(changed, observedAtNanos), events));
    }

    /** Re-judges every configured outbound after a configuration change, adding and removing outbounds: O(outbounds). */
    private void refreshAll() {
        long nowNanos = writer.nanoTime();
        Instant now = clock.instant();
        Set<String> passiveChanged = passive.drain(tags, nowNanos);
        Observation previous = store.current();
        Map<String, OutboundHealth> next = new LinkedHashMap<>(tags.size() * 4 / 3 + 1);
        List<OutboundEvent> events = new ArrayList<>();
        for (String tag : tags) {
            OutboundHealth before = previous.get(tag).orElse(null);
            OutboundStatus status = statuses.get(tag);
            MeshMark mesh = meshMarks.get(tag);
            if (before != null
                    && !passiveChanged.contains(tag)
                    && Objects.equals(status, before.probe())
                    && Objects.equals(mesh, before.mesh())) {
                next.put(tag, before);
                continue;
            }
            OutboundHealth health = judge(tag, status, mesh, before, now);
            next.put(tag, health);
            if (before == null) {
                events.add(new OutboundEvent.Added(health));
            } else if (!health.equals(before)) {
                events.add(new OutboundEvent.Updated(before, health));
            }
        }
        previous.all().stream()
                .filter(gone -> !next.containsKey(gone.tag()))
                .forEach(gone -> events.add(new OutboundEvent.Removed(gone, now)));
        events.sort(Comparator.comparing(OutboundEvent::tag));
        passive.settle(nowNanos);
        store.publish(new ObservationUpdate(new Observation(next, availability, observedAtNanos), events));
    }

    /**
     * The next entry of one outbound: the combined verdict of its active, passive and mesh states and, when a state
     * changed, the change time and a reason naming what changed; {@code before}'s change time and reason otherwise.
     */
    private OutboundHealth judge(
            String tag,
            @Nullable OutboundStatus status,
            @Nullable MeshMark mesh,
            @Nullable OutboundHealth before,
            Instant now) {
        PassiveView view = passive.view(tag);
        HealthState active =
                status == null ? HealthState.UNKNOWN : status.active().state();
        HealthState meshState = mesh == null ? HealthState.UNKNOWN : mesh.state();
        HealthState verdict = CombinedVerdict.of(active, view.state(), meshState);
        if (before == null) {
            return new OutboundHealth(tag, status, view, mesh, verdict, now, "outbound added");
        }
        String reason = CombinedVerdict.changeReason(List.of(
                new CombinedVerdict.Change(
                        "active",
                        before.activeState(),
                        active,
                        () -> status == null ? "no longer observed" : activeDetail(status)),
                new CombinedVerdict.Change(
                        "passive",
                        before.passive().state(),
                        view.state(),
                        () -> passive.why(tag, before.passive().state())),
                new CombinedVerdict.Change(
                        "mesh",
                        before.meshState(),
                        meshState,
                        () -> mesh == null ? "no longer judged" : mesh.detail())));
        return reason == null
                ? new OutboundHealth(tag, status, view, mesh, verdict, before.lastChange(), before.lastChangeReason())
                : new OutboundHealth(tag, status, view, mesh, verdict, now, reason);
    }

    /**
     * The active evidence; for a restored status, e.g. {@code restored from the state file (measured
     * 2026-12-01T10:00:00.123Z): probe succeeded: HTTP 204 in 12 ms}.
     */
    private static String activeDetail(OutboundStatus status) {
        Instant restored = status.restoredFrom();
        return restored == null
                ? status.activeDetail()
                : "restored from the state file (measured " + restored.truncatedTo(ChronoUnit.MILLIS) + "): "
                        + status.activeDetail();
    }

    /** The configured tags, iterating in tag order, so the observation is built in order. */
    private static Set<String> tagsOf(ObservatoryConfig config) {
        return config.observedOutbounds().stream()
                .map(Outbound::tag)
                .sorted()
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }
}
