package io.observatory.incident;

import io.observatory.health.CombinedVerdict;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.snapshot.Condition;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.ConditionSource;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Turns the snapshot's bad states into incident {@link Transition}s, on the writer: an outbound's own evidence
 * (active or passive) making its verdict UNHEALTHY — or DEGRADED, when asked — and every {@link ConditionSource}'s
 * conditions (the mesh's servers, entry points, witnesses, routes). A subject entering a bad state, or another one,
 * opens; leaving it resolves. An outbound made UNHEALTHY by a capability's source alone (a mesh hub's mark on an entry
 * point) is that capability's incident, not a second one.
 *
 * <p>Incidents still open in the database when the process starts are handed in by {@link #restore}: one whose
 * condition still holds stays open without a new transition (no second e-mail after a restart); one whose subject is
 * not judged yet (an outbound not probed since the start, a source not {@linkplain ConditionSource#settled settled})
 * waits; the others resolve.
 *
 * <p>Cost: O(1) per changed outbound; per publication that replaces a source's part, one pass over its conditions and
 * over its open incidents. Holds one entry (about 100 bytes) per open incident.
 */
public final class IncidentTracker {

    /** The source of outbound incidents, as stored in {@link Incident#source}. */
    public static final String OUTBOUNDS = "outbounds";

    /** How often a source that is not settled yet is asked again. */
    static final Duration SETTLE_CHECK = Duration.ofSeconds(1);

    private static final String OUTBOUND_PREFIX = "outbound/";

    private final Scheduler writer;
    private final Clock clock;
    private final boolean degraded;
    private final List<ConditionSource<?>> sources;
    private final Consumer<Transition> sink;
    // Writer only: by source, the subjects in a bad state and the kind of each.
    private final Map<String, Map<String, Held>> open = new HashMap<>();
    // Writer only: by source, the part value last evaluated.
    private final Map<String, Object> evaluated = new HashMap<>();
    private @Nullable Observation latest;
    private boolean settleCheckDue;

    /**
     * @param writer   the writer, where every method runs
     * @param clock    the time of each transition
     * @param degraded whether a DEGRADED outbound is a bad state too ({@code observatory.incidents.degraded})
     * @param sources  the capabilities' condition sources
     * @param sink     hears each transition on the writer, and must not block it (the store queues it)
     */
    public IncidentTracker(
            Scheduler writer,
            Clock clock,
            boolean degraded,
            List<ConditionSource<?>> sources,
            Consumer<Transition> sink) {
        this.writer = writer;
        this.clock = clock;
        this.degraded = degraded;
        this.sources = List.copyOf(sources);
        this.sink = sink;
    }

    /** The first observation: every outbound and every source as it stands. On the writer. */
    public void start(Observation observation) {
        latest = observation;
        Instant now = clock.instant();
        for (OutboundHealth health : observation.all()) {
            outbound(health.tag(), health, now);
        }
        sources.forEach(source -> evaluate(source, observation, now, true));
    }

    /** One publication: the outbounds that changed, and each source whose part was replaced. On the writer. */
    public void update(ObservationUpdate update) {
        Observation observation = update.observation();
        latest = observation;
        Instant now = clock.instant();
        for (OutboundEvent event : update.transitions()) {
            if (event instanceof OutboundEvent.Added added) {
                outbound(added.now().tag(), added.now(), now);
            } else if (event instanceof OutboundEvent.Updated updated) {
                outbound(updated.now().tag(), updated.now(), now);
            } else if (event instanceof OutboundEvent.Removed removed) {
                outbound(removed.previous().tag(), null, now);
            }
        }
        sources.forEach(source -> evaluate(source, observation, now, false));
    }

    /**
     * The incidents the database still has open, as the store read them at start-up (or once it became reachable):
     * each is held as open, then judged against the latest observation like any other. On the writer.
     */
    public void restore(List<Incident> stored) {
        Instant now = clock.instant();
        for (Incident incident : stored) {
            if (!incident.source().equals(OUTBOUNDS)
                    && sources.stream().noneMatch(source -> source.part().name().equals(incident.source()))) {
                sink.accept(new Transition.Resolve(incident.subject(), incident.kind(), now, "no longer judged here"));
                continue;
            }
            open.computeIfAbsent(incident.source(), source -> new LinkedHashMap<>())
                    .putIfAbsent(incident.subject(), new Held(incident.kind(), true));
        }
        Observation observation = latest;
        if (observation == null) {
            return;
        }
        for (String subject : List.copyOf(open.getOrDefault(OUTBOUNDS, Map.of()).keySet())) {
            String tag = subject.substring(OUTBOUND_PREFIX.length());
            outbound(tag, observation.get(tag).orElse(null), now);
        }
        sources.forEach(source -> evaluate(source, observation, now, true));
    }

    /** The subjects in a bad state now, by source, with their kinds: what the tracker believes is open. */
    public Map<String, Map<String, String>> openKinds() {
        Map<String, Map<String, String>> kinds = new LinkedHashMap<>();
        open.forEach((source, subjects) -> {
            Map<String, String> bySubject = new LinkedHashMap<>();
            subjects.forEach((subject, held) -> bySubject.put(subject, held.kind()));
            kinds.put(source, bySubject);
        });
        return kinds;
    }

    /** {@code health} null: the outbound left the configuration. */
    private void outbound(String tag, @Nullable OutboundHealth health, Instant now) {
        String subject = OUTBOUND_PREFIX + tag;
        Condition condition = health == null ? null : condition(health).orElse(null);
        Map<String, Held> subjects = open.computeIfAbsent(OUTBOUNDS, source -> new LinkedHashMap<>());
        if (condition != null) {
            enter(OUTBOUNDS, subjects, condition, now);
            return;
        }
        Held held = subjects.get(subject);
        if (held == null) {
            return;
        }
        if (health == null) {
            leave(subjects, subject, held, now, "no longer in the configuration");
        } else if (!held.restored() || health.verdict() != HealthState.UNKNOWN) {
            leave(subjects, subject, held, now, "now " + CombinedVerdict.word(health.verdict()));
        }
    }

    /**
     * The outbound's bad state, when its own evidence makes it: UNHEALTHY (critical) or, when asked, DEGRADED (a
     * warning), with the last probe's hop and error kind as labels.
     */
    private Optional<Condition> condition(OutboundHealth health) {
        HealthState verdict = health.verdict();
        boolean bad = verdict == HealthState.UNHEALTHY || (degraded && verdict == HealthState.DEGRADED);
        if (!bad || !(health.activeState() == verdict || health.passive().state() == verdict)) {
            return Optional.empty();
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("outbound", health.tag());
        ProbeError error = health.probe() == null || health.probe().lastProbe() == null
                ? null
                : health.probe().lastProbe().error();
        if (error != null) {
            labels.put("hop", error.hop().name().toLowerCase(Locale.ROOT));
            labels.put("error", error.kind().name().toLowerCase(Locale.ROOT));
        }
        return Optional.of(new Condition(
                OUTBOUND_PREFIX + health.tag(),
                verdict.name(),
                verdict == HealthState.UNHEALTHY ? Severity.CRITICAL : Severity.WARNING,
                health.lastChangeReason(),
                labels,
                List.of()));
    }

    /** Evaluates {@code source} when its part was replaced since the last evaluation, or when {@code always}. */
    private <T> void evaluate(ConditionSource<T> source, Observation observation, Instant now, boolean always) {
        String name = source.part().name();
        T value = observation.part(source.part());
        if (!always && evaluated.get(name) == value) {
            return;
        }
        evaluated.put(name, value);
        boolean settled = source.settled(value, now);
        Map<String, Held> subjects = open.computeIfAbsent(name, key -> new LinkedHashMap<>());
        Map<String, Condition> conditions = new HashMap<>();
        for (Condition condition : source.conditions(value, now)) {
            conditions.put(condition.subject(), condition);
            enter(name, subjects, condition, now);
        }
        for (Map.Entry<String, Held> entry : new ArrayList<>(subjects.entrySet())) {
            Held held = entry.getValue();
            if (!conditions.containsKey(entry.getKey()) && (settled || !held.restored())) {
                leave(subjects, entry.getKey(), held, now, "recovered");
            }
        }
        if (!settled) {
            checkSettlingLater();
        }
    }

    /** Asks every source again in {@link #SETTLE_CHECK}, once, so a restored incident resolves without a publication. */
    private void checkSettlingLater() {
        if (settleCheckDue) {
            return;
        }
        settleCheckDue = true;
        writer.schedule(SETTLE_CHECK, () -> {
            settleCheckDue = false;
            Observation observation = latest;
            if (observation != null) {
                Instant now = clock.instant();
                sources.forEach(source -> evaluate(source, observation, now, true));
            }
        });
    }

    private void enter(String source, Map<String, Held> subjects, Condition condition, Instant now) {
        Held held = subjects.get(condition.subject());
        if (held != null && held.kind().equals(condition.kind()) && !held.restored()) {
            return;
        }
        // A restored incident seen bad again is opened once more: the database answers that it is open (not ours, no
        // message), or opens it anew if a transition queued before the restore had resolved it meanwhile.
        subjects.put(condition.subject(), new Held(condition.kind(), false));
        sink.accept(new Transition.Open(condition, source, now));
    }

    private void leave(Map<String, Held> subjects, String subject, Held held, Instant now, String resolution) {
        subjects.remove(subject);
        sink.accept(new Transition.Resolve(subject, held.kind(), now, resolution));
    }

    /**
     * A subject in a bad state.
     *
     * @param kind     the bad state
     * @param restored whether it was read from the database and not seen since
     */
    private record Held(String kind, boolean restored) {}
}
