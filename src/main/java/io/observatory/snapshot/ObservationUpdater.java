package io.observatory.snapshot;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.CombinedVerdict;
import io.observatory.health.HealthState;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
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
 * the passive evidence ({@link PassiveHealthUpdater}), the capabilities' publications (their snapshot parts with
 * their health sources' states) and configuration changes, judges each changed outbound's verdict
 * ({@link CombinedVerdict}) and publishes the whole snapshot with the changes that led to it. Every method that
 * changes state runs on the writer and says so when called elsewhere, so there are no locks; readers read the
 * {@link #store()}.
 *
 * <p>The snapshot is the one holder of every outbound's status and source states: a publication re-judges only the
 * outbounds whose observer status, passive view or source state changed, reading the rest from the snapshot it
 * replaces, and the others keep their entry (same object), so it costs O(changes) plus a copy of the snapshot's page
 * table; only a configuration change walks every outbound. Costs, besides the snapshot, one tag per outbound a health
 * source has an opinion of.
 */
public final class ObservationUpdater implements Reconfigurable, StatusSink {

    /** Reports waiting for the writer at most: ten full requests, about 6 MB. */
    public static final int MAX_PENDING_REPORTS = 100_000;

    private final Scheduler writer;
    private final Clock clock;
    private final PassiveHealthUpdater passive;
    private final ObservationStore store;
    // Reports queued for the writer and not applied yet: any thread adds, the writer subtracts.
    private final AtomicInteger pendingReports = new AtomicInteger();
    // Writer state below.
    private Set<String> tags;
    private AvailabilityPolicy availability;
    private OptionalLong observedAtNanos = OptionalLong.empty();
    // Per health source, the outbounds it has an opinion of in the snapshot: those its next publication may change.
    private final Map<String, Set<String>> sourceTags = new HashMap<>();

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
        this.passive = new PassiveHealthUpdater(initial.passive().policy(), writer, () -> refresh(Update.NONE));
        Instant now = clock.instant();
        Map<String, OutboundHealth> outbounds = new LinkedHashMap<>();
        tags.forEach(tag -> outbounds.put(tag, judge(tag, null, List.of(), null, now)));
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
     * snapshot's page table). Writer only.
     *
     * @throws IllegalStateException off the writer
     */
    @Override
    public void changed(Collection<OutboundStatus> changed, Collection<String> gone) {
        requireWriter("changed");
        Map<String, @Nullable OutboundStatus> statuses = new HashMap<>();
        gone.forEach(tag -> statuses.put(tag, null));
        changed.forEach(status -> statuses.put(status.tag(), status));
        observedAtNanos = OptionalLong.of(writer.nanoTime());
        refresh(new Update(statuses, null));
    }

    /** The observer status the snapshot holds for {@code tag}, or {@code null}. Any thread; O(1). */
    @Override
    public @Nullable OutboundStatus held(String tag) {
        return store.current().get(tag).map(OutboundHealth::probe).orElse(null);
    }

    /** Every observer status the snapshot holds, in tag order. Any thread; O(outbounds). */
    @Override
    public List<OutboundStatus> held() {
        List<OutboundStatus> held = new ArrayList<>();
        for (OutboundHealth outbound : store.current().all()) {
            if (outbound.probe() != null) {
                held.add(outbound.probe());
            }
        }
        return held;
    }

    /**
     * Publishes a capability's part of the snapshot and its health source's states of the outbounds together, so
     * that every reader sees both or neither (the mesh's view of its fleet and the states of a hub's entry points).
     * {@code states} is the source's whole opinion, by tag: an outbound it leaves out has none any more (UNKNOWN),
     * and one that is not in the observation is skipped. Re-judges only the outbounds whose source state changed
     * (a state equal to the one the outbound has is no change): O(outbounds the source has an opinion of, before or
     * now) comparisons, and a verdict for each changed one. Writer only.
     *
     * @param part   the capability's part, whose name is its health source's
     * @param value  the part's new value
     * @param states by tag, each of source {@code part.name()}
     * @throws IllegalArgumentException when a state is of another source
     * @throws IllegalStateException    off the writer
     */
    public <T> void publish(SnapshotPart<T> part, T value, Map<String, SourceHealth> states) {
        requireWriter("publish");
        states.forEach((tag, state) -> {
            if (!state.source().equals(part.name())) {
                throw new IllegalArgumentException("state of " + tag + " from source " + state.source()
                        + " (expected: source " + part.name() + ")");
            }
        });
        Observation current = store.current();
        Set<String> marked = new HashSet<>();
        Map<String, SourceHealth> changed = new HashMap<>();
        states.forEach((tag, state) -> {
            if (tags.contains(tag)) {
                marked.add(tag);
                if (!current.get(tag)
                        .map(health -> health.sources().contains(state))
                        .orElse(false)) {
                    changed.put(tag, state);
                }
            }
        });
        Set<String> before = sourceTags.put(part.name(), marked);
        Set<String> left = new HashSet<>(before == null ? Set.of() : before);
        left.removeAll(marked);
        refresh(new Update(Map.of(), new SourceChange(part, value, left, changed)));
    }

    /**
     * Applies reported call outcomes, in order, on the writer, then publishes once. The passive policy counts each
     * call when its report is applied (its windows and reactivation run on arrival time, which only moves forward);
     * the call's own end time goes into the call statistics. Reports for tags that are no longer configured by then
     * are dropped. Any thread.
     *
     * @return {@code false}, queueing nothing, when {@value #MAX_PENDING_REPORTS} reports would then wait for the
     *     writer: the caller is to refuse them, so that clients reporting faster than the writer applies cannot
     *     exhaust the heap
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
            refresh(Update.NONE);
        });
        return true;
    }

    /**
     * Every outbound's passive state and call statistics, with the name of the policy they are states of: what the
     * state file keeps of the passive side. Writer only; O(outbounds with reports).
     *
     * @throws IllegalStateException off the writer
     */
    public PassiveEntries passiveEntries() {
        requireWriter("passiveEntries");
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
     *
     * @throws IllegalStateException off the writer
     */
    public void restorePassive(List<PassiveEntry> entries) {
        requireWriter("restorePassive");
        passive.restore(entries, tags);
        refresh(Update.NONE);
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.VERDICTS;
    }

    /**
     * Applies a reloaded configuration: the set of outbounds (the observer status and source states of a removed one
     * are dropped, so one added again starts unknown), the availability policy and the passive policy (see
     * {@link PassiveHealthUpdater#reconfigure}). Writer only.
     *
     * @throws IllegalStateException off the writer
     */
    @Override
    public void reconfigure(ObservatoryConfig next) {
        requireWriter("reconfigure");
        tags = tagsOf(next);
        sourceTags.values().forEach(marked -> marked.retainAll(tags));
        availability = next.availability().policy();
        passive.reconfigure(next.passive().policy(), tags);
        refreshAll();
    }

    /**
     * Re-judges the outbounds {@code update} touches and those whose passive state moved, and publishes the snapshot
     * with the changes: O(those outbounds). Publishes nothing when no entry changed, no part is published and the
     * observer published nothing new (a report for an outbound no longer configured, a reactivation check that
     * reactivates nobody). The set of configured outbounds must be the snapshot's ({@link #refreshAll} otherwise); a
     * touched tag that is not configured is skipped.
     */
    private void refresh(Update update) {
        long nowNanos = writer.nanoTime();
        Instant now = clock.instant();
        Set<String> dirty = new TreeSet<>(update.statuses().keySet());
        SourceChange source = update.source();
        if (source != null) {
            dirty.addAll(source.before());
            dirty.addAll(source.states().keySet());
        }
        dirty.addAll(passive.drain(tags, nowNanos));
        Observation previous = store.current();
        List<OutboundHealth> changed = new ArrayList<>(dirty.size());
        List<OutboundEvent> events = new ArrayList<>(dirty.size());
        for (String tag : dirty) {
            OutboundHealth before = previous.get(tag).orElse(null);
            if (before == null) {
                continue;
            }
            OutboundHealth health = judge(tag, update.status(tag, before), update.sources(tag, before), before, now);
            if (!health.equals(before)) {
                changed.add(health);
                events.add(new OutboundEvent.Updated(before, health));
            }
        }
        passive.settle(nowNanos);
        if (changed.isEmpty() && source == null && previous.observedAtNanos().equals(observedAtNanos)) {
            return;
        }
        Observation next = previous.with(changed, observedAtNanos);
        store.publish(new ObservationUpdate(source == null ? next : source.onto(next), events));
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
            if (before != null && !passiveChanged.contains(tag)) {
                next.put(tag, before);
                continue;
            }
            OutboundHealth health = before == null
                    ? judge(tag, null, List.of(), null, now)
                    : judge(tag, before.probe(), before.sources(), before, now);
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
        Observation outbounds = new Observation(next, availability, observedAtNanos);
        store.publish(new ObservationUpdate(previous.partsOnto(outbounds), events));
    }

    /**
     * The next entry of one outbound: the combined verdict of its active, passive and source states and, when a
     * state changed, the change time and a reason naming what changed; {@code before}'s change time and reason
     * otherwise.
     *
     * @param sources its source states, in source name order
     */
    private OutboundHealth judge(
            String tag,
            @Nullable OutboundStatus status,
            List<SourceHealth> sources,
            @Nullable OutboundHealth before,
            Instant now) {
        PassiveView view = passive.view(tag);
        HealthState active =
                status == null ? HealthState.UNKNOWN : status.active().state();
        List<HealthState> states = new ArrayList<>(2 + sources.size());
        states.add(active);
        states.add(view.state());
        sources.forEach(source -> states.add(source.state()));
        HealthState verdict = CombinedVerdict.of(states);
        if (before == null) {
            return new OutboundHealth(tag, status, view, sources, verdict, now, "outbound added");
        }
        List<CombinedVerdict.Change> changes = new ArrayList<>();
        changes.add(new CombinedVerdict.Change(
                "active",
                before.activeState(),
                active,
                () -> status == null ? "no longer observed" : activeDetail(status)));
        changes.add(new CombinedVerdict.Change(
                "passive",
                before.passive().state(),
                view.state(),
                () -> passive.why(tag, before.passive().state())));
        Set<String> names = new TreeSet<>();
        before.sources().forEach(source -> names.add(source.source()));
        sources.forEach(source -> names.add(source.source()));
        for (String name : names) {
            SourceHealth after = sources.stream()
                    .filter(source -> source.source().equals(name))
                    .findFirst()
                    .orElse(null);
            changes.add(new CombinedVerdict.Change(
                    name,
                    before.sourceState(name),
                    after == null ? HealthState.UNKNOWN : after.state(),
                    () -> after == null ? "no longer judged" : after.detail()));
        }
        String reason = CombinedVerdict.changeReason(changes);
        return reason == null
                ? new OutboundHealth(
                        tag, status, view, sources, verdict, before.lastChange(), before.lastChangeReason())
                : new OutboundHealth(tag, status, view, sources, verdict, now, reason);
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

    private void requireWriter(String method) {
        if (!writer.inSchedulerThread()) {
            throw new IllegalStateException("ObservationUpdater." + method + " called on "
                    + Thread.currentThread().getName() + " (expected: the writer, " + writer + ")");
        }
    }

    /**
     * What one refresh applies besides the passive side: new observer statuses ({@code null} for an outbound the
     * observer no longer has one of) and at most one capability's publication.
     */
    private record Update(
            Map<String, @Nullable OutboundStatus> statuses,
            @Nullable SourceChange source) {

        static final Update NONE = new Update(Map.of(), null);

        /** The observer status of {@code tag} after this update. */
        @Nullable
        OutboundStatus status(String tag, OutboundHealth before) {
            return statuses.containsKey(tag) ? statuses.get(tag) : before.probe();
        }

        /** The source states of {@code tag} after this update, in source name order. */
        List<SourceHealth> sources(String tag, OutboundHealth before) {
            return source == null ? before.sources() : source.sources(tag, before.sources());
        }
    }

    /**
     * One capability's publication: its part's new value, the outbounds its source had an opinion of before and its
     * new states.
     */
    private record SourceChange(
            SnapshotPart<?> part, Object value, Set<String> before, Map<String, SourceHealth> states) {

        /** {@code current} with this source's state of {@code tag} replaced, in source name order. */
        List<SourceHealth> sources(String tag, List<SourceHealth> current) {
            SourceHealth state = states.get(tag);
            List<SourceHealth> next = new ArrayList<>(current.size() + 1);
            current.stream()
                    .filter(source -> !source.source().equals(part.name()))
                    .forEach(next::add);
            if (state != null) {
                next.add(state);
                next.sort(Comparator.comparing(SourceHealth::source));
            }
            return next.equals(current) ? current : next;
        }

        Observation onto(Observation observation) {
            return withPart(observation, part, value);
        }

        private static <T> Observation withPart(Observation observation, SnapshotPart<T> part, Object value) {
            return observation.withPart(part, part.type().cast(Objects.requireNonNull(value)));
        }
    }
}
