package io.observatory.incident.store;

import io.observatory.incident.DrainQueue;
import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.Transition;
import io.observatory.time.Backoff;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedRuntimeException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.TransactionException;

/**
 * Records the tracker's transitions in the database on its own thread, so that no write ever blocks the writer.
 * Transitions wait in a bounded queue ({@code observatory.incidents.queue}); a full queue drops the newest and counts
 * it. Each drain migrates the schema first (once), reads the incidents left open by an earlier run (once, handed to
 * {@code restored}), then records up to {@value #BATCH} transitions per transaction and tells the listeners what the
 * database decided.
 *
 * <p>A database that cannot take a write (down, restarting, a lost connection, a full or read-only disk: any failure
 * but an integrity violation) keeps the queue: the drain is retried
 * after 1 s, doubling up to {@link #MAX_BACKOFF}, the outage logged once when it starts and once when it ends. A batch
 * the database refuses for its content is recorded one transition at a time, and each refused one is dropped with an
 * ERROR, so one bad row never blocks the rest. Resolved incidents older than {@code retention} are deleted every
 * {@link #PRUNE_INTERVAL}.
 *
 * <p>Keeps every open incident in memory (about 500 bytes each) for the watchers' first message; a queued transition
 * is about 400 bytes, so the default bound of 10,000 holds about 4 MB.
 */
public final class IncidentStore {

    /** The most transitions recorded in one transaction. */
    static final int BATCH = 256;

    /** The longest wait between two attempts while the database cannot be reached. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    /** How often resolved incidents past the retention are deleted. */
    static final Duration PRUNE_INTERVAL = Duration.ofHours(1);

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(IncidentStore.class);

    private final IncidentRepository repository;
    private final Scheduler thread;
    private final Clock clock;
    private final Duration retention;
    private Consumer<List<Incident>> restored = open -> {};
    private final List<Consumer<IncidentEvent>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Recorded>> watchers = new CopyOnWriteArrayList<>();
    // The store thread only: what runs once the database is prepared.
    private final List<Runnable> whenPrepared = new ArrayList<>();
    private final DrainQueue<Transition> queue;
    private final AtomicLong recorded = new AtomicLong();
    // The store thread only, but read by gauges.
    private volatile boolean reachable;
    private volatile int openCount;
    // The store thread only.
    private final Map<String, Incident> open = new LinkedHashMap<>();
    private boolean migrated;
    private boolean restoreDone;
    private final Backoff backoff = new Backoff(FIRST_BACKOFF, MAX_BACKOFF);
    private boolean outage;
    private boolean stopped;

    /**
     * @param repository the table
     * @param thread     the store's own thread ({@code incident-store}), where every database call runs
     * @param clock      the retention's clock
     * @param capacity   the most transitions queued while the database is slow or down, positive
     * @param retention  how long a resolved incident is kept
     */
    public IncidentStore(
            IncidentRepository repository, Scheduler thread, Clock clock, int capacity, Duration retention) {
        this.repository = repository;
        this.thread = thread;
        this.clock = clock;
        this.retention = retention;
        this.queue = new DrainQueue<>(
                new DrainQueue.Words(
                        "incident queue",
                        "transitions waiting for the database",
                        "observatory_incidents_dropped_total"),
                capacity,
                thread,
                this::drain);
    }

    /**
     * Migrates, restores and prunes now, and prunes every {@link #PRUNE_INTERVAL} after.
     *
     * @param restored hears, once, the incidents an earlier run left open, on the store thread: it must hand them to
     *                 the writer, not block
     */
    public void start(Consumer<List<Incident>> restored) {
        thread.execute(() -> this.restored = restored);
        queue.schedule(Duration.ZERO);
        thread.schedule(Duration.ZERO, this::prune);
    }

    /** Stops draining; what is still queued stays unrecorded (the next start's tracker sees the same states). */
    public void stop() {
        thread.execute(() -> stopped = true);
    }

    /**
     * Queues one transition; never blocks. Any thread (the writer).
     *
     * @return false when the queue was full and it was dropped
     */
    public boolean offer(Transition transition) {
        return queue.offer(transition);
    }

    /** Tells {@code listener} every event from now on, on the store thread, in order; it must not block. */
    public void listen(Consumer<IncidentEvent> listener) {
        listeners.add(listener);
    }

    /**
     * On the store thread, once the open incidents of an earlier run are read (at once when they are): {@code start}
     * gets the open incidents, then {@code recorded} each later batch of events with the open incidents after it, so
     * that nothing is missed or seen twice. Both must be quick.
     *
     * @return stops the batches, after whatever the store thread has queued (a stop before the start is not missed)
     */
    public Runnable watch(Consumer<List<Incident>> start, Consumer<Recorded> recorded) {
        Runnable subscribe = () -> {
            start.accept(List.copyOf(open.values()));
            watchers.add(recorded);
        };
        whenPrepared(subscribe);
        return () -> thread.execute(() -> {
            whenPrepared.remove(subscribe);
            watchers.remove(recorded);
        });
    }

    /**
     * One batch the database recorded.
     *
     * @param events what changed, in order
     * @param open   every open incident after it, oldest first
     */
    public record Recorded(List<IncidentEvent> events, List<Incident> open) {

        public Recorded {
            events = List.copyOf(events);
            open = List.copyOf(open);
        }
    }

    /**
     * Runs {@code task} on the store thread once the schema is migrated and the open incidents restored, before any
     * transition is recorded: at once when that is done already. A task that fails is logged; it does not stop the
     * store.
     */
    public void whenPrepared(Runnable task) {
        thread.execute(() -> {
            if (restoreDone) {
                runLogged(task);
            } else {
                whenPrepared.add(task);
            }
        });
    }

    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.error("incident store: a task after preparation failed", e);
        }
    }

    /** Transitions waiting to be recorded. */
    public int queued() {
        return queue.size();
    }

    /** Transitions dropped because the queue was full, since the start. */
    public long dropped() {
        return queue.dropped();
    }

    /** Transitions recorded, since the start. */
    public long recorded() {
        return recorded.get();
    }

    /** Incidents open, as last read or recorded. */
    public int openCount() {
        return openCount;
    }

    /** Whether the last attempt reached the database. */
    public boolean reachable() {
        return reachable;
    }

    private void drain() {
        if (stopped) {
            return;
        }
        try {
            prepare();
            for (List<Transition> batch = queue.head(BATCH); !batch.isEmpty(); batch = queue.head(BATCH)) {
                record(batch);
            }
            recovered();
        } catch (RuntimeException e) {
            // The database's and the driver's failures, and anything else a row or the pool may throw: the drain
            // must be retried, or no incident would be recorded again.
            failed(e);
        }
    }

    /**
     * A batch the database refused for its content is recorded one transition at a time; anything else is an outage,
     * retried after the backoff.
     */
    private void failed(RuntimeException e) {
        RuntimeException cause = e;
        if (migrated && restoreDone && refused(e)) {
            try {
                recordOneByOne();
                queue.schedule(Duration.ZERO);
                return;
            } catch (RuntimeException again) {
                cause = again;
            }
        }
        unreachable(cause);
        queue.schedule(backoff.next());
    }

    /** Migrates and restores, each once. */
    private void prepare() {
        if (!migrated) {
            repository.migrate();
            migrated = true;
        }
        if (!restoreDone) {
            List<Incident> stored = repository.open();
            restoreDone = true;
            stored.forEach(incident -> open.put(incident.id(), incident));
            openCount = open.size();
            if (!stored.isEmpty()) {
                log.info(
                        "{} incidents still open from an earlier run; kept open while their subjects stay bad",
                        stored.size());
            }
            restored.accept(stored);
            whenPrepared.forEach(IncidentStore::runLogged);
            whenPrepared.clear();
        }
    }

    private void record(List<Transition> batch) {
        List<IncidentEvent> events = repository.apply(batch);
        queue.removeHead(batch.size());
        recorded.addAndGet(batch.size());
        publish(events);
    }

    /** After a batch the database refused for its content: records each alone, dropping the refused ones. */
    private void recordOneByOne() {
        for (Transition transition : queue.head(BATCH)) {
            try {
                record(List.of(transition));
            } catch (DataAccessException e) {
                if (!refused(e)) {
                    throw e;
                }
                queue.drop(transition);
                log.error(
                        "incident transition of {} refused by the database, dropped: {}",
                        transition.subject(),
                        e.getMostSpecificCause().getMessage());
            }
        }
    }

    /**
     * Tells the listeners and watchers what changed; an opening of an incident already known open here (the
     * database's answer to a restored incident seen bad again) changes nothing and is not told.
     */
    private void publish(List<IncidentEvent> recorded) {
        List<IncidentEvent> events = new ArrayList<>(recorded.size());
        for (IncidentEvent event : recorded) {
            Incident incident = event.incident();
            if (incident.open()) {
                if (open.put(incident.id(), incident) != null && !event.ours()) {
                    continue;
                }
            } else {
                open.remove(incident.id());
            }
            events.add(event);
            for (Consumer<IncidentEvent> listener : listeners) {
                try {
                    listener.accept(event);
                } catch (RuntimeException e) {
                    log.error("incident listener {} failed; the others still hear the event", listener, e);
                }
            }
        }
        openCount = open.size();
        if (!events.isEmpty() && !watchers.isEmpty()) {
            Recorded batch = new Recorded(events, List.copyOf(open.values()));
            for (Consumer<Recorded> watcher : watchers) {
                try {
                    watcher.accept(batch);
                } catch (RuntimeException e) {
                    log.error("incident watcher {} failed; the others still hear the batch", watcher, e);
                }
            }
        }
    }

    private void prune() {
        if (stopped) {
            return;
        }
        thread.schedule(PRUNE_INTERVAL, this::prune);
        if (!migrated) {
            return;
        }
        try {
            int deleted = repository.prune(clock.instant().minus(retention));
            if (deleted > 0) {
                log.info("{} incidents resolved more than {} ago deleted", deleted, retention);
            }
        } catch (DataAccessException | TransactionException e) {
            unreachable(e);
        }
    }

    /**
     * Whether the database refused the content (a constraint, a value too long), rather than could not take it: only
     * an integrity violation. SQLite's errors carry no SQLState and arrive uncategorised, and a read-only or full
     * database is no fault of the row, so everything else is an outage and keeps the queue.
     */
    private static boolean refused(Exception e) {
        return e instanceof DataIntegrityViolationException;
    }

    private void unreachable(Exception e) {
        reachable = false;
        if (!outage) {
            outage = true;
            log.warn(
                    "incident database unreachable, {} transitions queued (up to {}), retrying: {}",
                    queued(),
                    queue.capacity(),
                    (e instanceof NestedRuntimeException nested ? nested.getMostSpecificCause() : e).getMessage());
        }
    }

    private void recovered() {
        reachable = true;
        backoff.reset();
        if (outage) {
            outage = false;
            log.info("incident database reachable again; queued transitions recorded");
        }
    }
}
