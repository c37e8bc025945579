package io.observatory.verdict;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.config.Reconfigurable;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.health.PassivePolicy;
import io.observatory.time.Scheduler;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides every configured outbound's verdict from the observer's statuses (active state) and the reported call
 * outcomes (passive state), and publishes the result as an immutable {@link HealthBoard} with the real changes that
 * led to it (YARP's health updater). The single writer is the observers' writer thread: observer publications,
 * passive reports, reactivation timers and configuration changes are all applied there, so there are no locks;
 * readers take {@link #board()} without locking. Each change of a verdict, active or passive state is logged once at
 * INFO: {@code outbound <tag>: <old verdict> -> <new verdict> (<what changed>: <why>)}, or
 * {@code outbound <tag>: still <verdict> (...)} when only the active or passive state changed.
 */
public final class VerdictKeeper implements Reconfigurable {

    private static final Logger log = LoggerFactory.getLogger(VerdictKeeper.class);

    private final Scheduler scheduler;
    private final Clock clock;
    private final ObservationStore store;
    private final AtomicReference<HealthBoard> board;
    private final List<Consumer<BoardUpdate>> listeners = new CopyOnWriteArrayList<>();
    // Set by any thread asking for a refresh, cleared on the writer thread: coalesces bursts into one refresh.
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    // Writer-thread state below.
    private Set<String> tags;
    private PassiveLedger<?> ledger;
    private AvailabilityPolicy availability;
    private final Map<String, CallStatistics> calls = new HashMap<>();
    // Outbounds whose passive state or call statistics changed since the last refresh; the others keep their entry.
    private final Set<String> passiveTouched = new HashSet<>();
    // Why passive states start over in the next refresh (a different passive policy), else null.
    private String passiveRestart;
    private Scheduler.Cancellable reactivation = () -> { };
    private long scheduledReactivationNanos = Long.MAX_VALUE;

    /**
     * @param initial   the configuration validated at startup: outbounds, passive policy, availability
     * @param scheduler the observers' writer thread and ticker; passive windows and reactivation run on its time
     * @param clock     wall clock for change times
     * @param store     the observer's statuses; every publication refreshes the board
     */
    public VerdictKeeper(ObservatoryConfig initial, Scheduler scheduler, Clock clock, ObservationStore store) {
        this.scheduler = scheduler;
        this.clock = clock;
        this.store = store;
        this.tags = tagsOf(initial);
        this.ledger = PassiveLedger.of(initial.passive().policy());
        this.availability = initial.availability().policy();
        this.board = new AtomicReference<>(new HealthBoard(Map.of(), availability));
        refresh();
        store.addListener(publication -> requestRefresh());
    }

    /** The current board; every configured outbound is on it from construction. Never blocks. */
    public HealthBoard board() {
        return board.get();
    }

    /**
     * Starts following the board: on the writer thread, {@code start} receives the current board and
     * {@code updates} every later publication, so nothing published in between is missed or seen twice. Both run on
     * the writer thread and must be quick.
     *
     * @return cancels the subscription on the writer thread, after the publications already queued there
     */
    public Runnable watch(Consumer<HealthBoard> start, Consumer<BoardUpdate> updates) {
        scheduler.execute(() -> {
            start.accept(board.get());
            listeners.add(updates);
        });
        return () -> scheduler.execute(() -> listeners.remove(updates));
    }

    /**
     * Applies reported call outcomes, in order, on the writer thread, then publishes once. The passive policy counts
     * each call when its report is applied (its windows and reactivation run on arrival time, which only moves
     * forward); the call's own end time goes into the call statistics. Reports for tags that are no longer
     * configured by then are dropped.
     *
     * @param reports validated reports
     */
    public void report(List<PassiveReport> reports) {
        List<PassiveReport> batch = List.copyOf(reports);
        scheduler.execute(() -> {
            long nowNanos = scheduler.nanoTime();
            for (PassiveReport report : batch) {
                if (!tags.contains(report.tag())) {
                    continue;
                }
                ledger.record(report.tag(), report.outcome(), nowNanos);
                passiveTouched.add(report.tag());
                calls.merge(report.tag(), CallStatistics.first(report.outcome(), report.latencyNanos(),
                        report.endedAt()), (old, one) -> old.plus(report.outcome(), report.latencyNanos(),
                        report.endedAt()));
            }
            refresh();
        });
    }

    /**
     * Applies a reloaded configuration on the writer thread: the set of outbounds, the availability settings, and the
     * passive policy. New parameters of the same policy keep every outbound's passive state (the new parameters apply
     * from the next call or reactivation check); a different policy starts every passive state over at UNKNOWN. Call
     * statistics stay either way.
     */
    @Override
    public void reconfigure(ObservatoryConfig config) {
        scheduler.execute(() -> {
            tags = tagsOf(config);
            availability = config.availability().policy();
            PassivePolicy<?> policy = config.passive().policy();
            if (!policy.equals(ledger.policy())) {
                boolean sameKind = policy.getClass() == ledger.policy().getClass();
                log.info("passive policy {} {}", policy.name(), sameKind ? "has new parameters: passive states kept"
                        : "replaces " + ledger.policy().name() + ": passive states start over at unknown");
                ledger = ledger.withPolicy(policy);
                passiveTouched.addAll(tags);
                if (!sameKind) {
                    passiveRestart = "passive policy changed to " + policy.name();
                }
            }
            refresh();
        });
    }

    private void requestRefresh() {
        if (refreshQueued.compareAndSet(false, true)) {
            scheduler.execute(this::refresh);
        }
    }

    private void refresh() {
        refreshQueued.set(false);
        long nowNanos = scheduler.nanoTime();
        Instant now = clock.instant();
        passiveTouched.addAll(ledger.advance(nowNanos));
        ledger.retain(tags);
        calls.keySet().retainAll(tags);
        Map<String, OutboundStatus> statuses = new HashMap<>();
        store.current().statuses().forEach(status -> statuses.put(status.tag(), status));
        HealthBoard previous = board.get();
        Map<String, OutboundHealth> next = new LinkedHashMap<>(tags.size() * 4 / 3 + 1);
        List<VerdictEvent> events = new ArrayList<>();
        for (String tag : tags) {
            OutboundHealth before = previous.outbounds().get(tag);
            OutboundStatus status = statuses.get(tag);
            if (before != null && !passiveTouched.contains(tag) && Objects.equals(status, before.probe())) {
                next.put(tag, before);
                continue;
            }
            OutboundHealth health = judge(tag, status, before, now);
            next.put(tag, health);
            if (before == null) {
                events.add(new VerdictEvent.Changed(health, null, null, null));
            } else if (health.statesDiffer(before)) {
                events.add(new VerdictEvent.Changed(health, before.verdict(), before.activeState(),
                        before.passive().state()));
                logChange(before, health);
            }
        }
        for (String tag : previous.outbounds().keySet()) {
            if (!next.containsKey(tag)) {
                events.add(new VerdictEvent.Removed(tag, now));
            }
        }
        passiveTouched.clear();
        passiveRestart = null;
        events.sort((a, b) -> a.tag().compareTo(b.tag()));
        HealthBoard published = new HealthBoard(next, availability);
        board.set(published);
        scheduleReactivation(nowNanos);
        BoardUpdate update = new BoardUpdate(published, events);
        for (Consumer<BoardUpdate> listener : listeners) {
            try {
                listener.accept(update);
            } catch (RuntimeException e) {
                log.error("verdict listener {} failed; other listeners still run", listener, e);
            }
        }
    }

    private static void logChange(OutboundHealth before, OutboundHealth after) {
        if (before.verdict() == after.verdict()) {
            log.info("outbound {}: still {} ({})", after.tag(), VerdictJudge.word(after.verdict()), after.lastChangeReason());
        } else {
            log.info("outbound {}: {} -> {} ({})", after.tag(), VerdictJudge.word(before.verdict()), VerdictJudge.word(after.verdict()),
                    after.lastChangeReason());
        }
    }

    private OutboundHealth judge(String tag, OutboundStatus status, OutboundHealth before, Instant now) {
        return VerdictJudge.judge(tag, status, ledger.view(tag, calls.get(tag)),
                () -> passiveRestart != null ? passiveRestart : ledger.describe(tag, before.passive().state()),
                before, now);
    }

    private void scheduleReactivation(long nowNanos) {
        OptionalLong next = ledger.nextReactivationNanos();
        long at = next.orElse(Long.MAX_VALUE);
        if (at == scheduledReactivationNanos) {
            return;
        }
        reactivation.cancel();
        scheduledReactivationNanos = at;
        if (next.isPresent()) {
            reactivation = scheduler.schedule(Duration.ofNanos(Math.max(0, at - nowNanos)), () -> {
                scheduledReactivationNanos = Long.MAX_VALUE;
                refresh();
            });
        }
    }

    /** The configured tags, iterating in tag order, so the board is built in order. */
    private static Set<String> tagsOf(ObservatoryConfig config) {
        Set<String> sorted = new TreeSet<>();
        for (Outbound outbound : config.outbounds()) {
            sorted.add(outbound.tag());
        }
        return new LinkedHashSet<>(sorted);
    }
}
