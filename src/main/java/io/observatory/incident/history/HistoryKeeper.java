package io.observatory.incident.history;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.store.IncidentQuery;
import io.observatory.incident.store.IncidentRepository;
import io.observatory.incident.store.IncidentStore;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@link IncidentHistory} on the store's thread: reads the last {@link #WINDOW} of incidents once the
 * database answers (at most {@link #MAX_LOADED}, newest first), applies every recorded batch, and publishes the
 * history on the writer after each, and every {@link #REFRESH} so that open incidents age on the page. So the page
 * shows what survived a restart. Costs one copy of the subjects' map per batch (O(subjects)), and the changed
 * subjects' lists.
 */
public final class HistoryKeeper {

    /** How far back the page looks: its strip's 90 days. */
    public static final Duration WINDOW = Duration.ofDays(90);

    /** The most incidents read at start-up. */
    static final int MAX_LOADED = 200_000;

    /** How often the history is published without a change, so that durations and availability move on. */
    static final Duration REFRESH = Duration.ofMinutes(1);

    private static final int PAGE = 1000;
    private static final Logger log = LoggerFactory.getLogger(HistoryKeeper.class);

    private final IncidentRepository repository;
    private final IncidentStore store;
    private final Scheduler writer;
    private final ObservationUpdater updater;
    private final Clock clock;
    // The store's thread only.
    private Map<String, List<Incident>> bySubject = Map.of();
    private boolean loaded;

    public HistoryKeeper(
            IncidentRepository repository,
            IncidentStore store,
            Scheduler writer,
            ObservationUpdater updater,
            Clock clock) {
        this.repository = repository;
        this.store = store;
        this.writer = writer;
        this.updater = updater;
        this.clock = clock;
    }

    /** Reads the history once the database answers, then follows the store. */
    public void start() {
        store.whenPrepared(this::load);
        store.watch(open -> {}, batch -> apply(batch.events()));
        writer.schedule(REFRESH, this::refresh);
    }

    private void load() {
        Instant from = clock.instant().minus(WINDOW);
        Map<String, List<Incident>> read = new HashMap<>();
        IncidentQuery.Position after = null;
        int total = 0;
        while (total < MAX_LOADED) {
            List<Incident> page =
                    repository.list(new IncidentQuery("", IncidentQuery.State.ANY, from, null, after, PAGE));
            for (Incident incident : page) {
                List<Incident> incidents = read.computeIfAbsent(incident.subject(), subject -> new ArrayList<>());
                if (incidents.size() < IncidentHistory.PER_SUBJECT) {
                    incidents.add(incident);
                }
            }
            total += page.size();
            if (page.size() < PAGE) {
                break;
            }
            Incident last = page.get(page.size() - 1);
            after = new IncidentQuery.Position(last.openedAt(), last.id());
        }
        if (total >= MAX_LOADED) {
            log.warn(
                    "incident history: the newest {} incidents of the last {} read; older ones are not shown",
                    MAX_LOADED,
                    WINDOW.toDays() + " days");
        }
        Map<String, List<Incident>> frozen = new HashMap<>();
        read.forEach((subject, incidents) -> frozen.put(subject, List.copyOf(incidents)));
        bySubject = frozen;
        loaded = true;
        publish();
    }

    private void apply(List<IncidentEvent> events) {
        if (!loaded) {
            load();
        }
        Map<String, List<Incident>> next = new HashMap<>(bySubject);
        for (IncidentEvent event : events) {
            Incident incident = event.incident();
            List<Incident> incidents = new ArrayList<>(next.getOrDefault(incident.subject(), List.of()));
            incidents.removeIf(kept -> kept.id().equals(incident.id()));
            int at = 0;
            while (at < incidents.size() && incidents.get(at).openedAt().isAfter(incident.openedAt())) {
                at++;
            }
            incidents.add(at, incident);
            next.put(
                    incident.subject(),
                    List.copyOf(incidents.subList(0, Math.min(incidents.size(), IncidentHistory.PER_SUBJECT))));
        }
        bySubject = next;
        publish();
    }

    private void publish() {
        IncidentHistory history = new IncidentHistory(bySubject, loaded);
        writer.execute(() -> updater.publish(IncidentHistory.PART, history, Map.of()));
    }

    /** On the writer: publishes the same history again, as a new value, so the page's durations move on. */
    private void refresh() {
        IncidentHistory current = updater.store().current().part(IncidentHistory.PART);
        updater.publish(IncidentHistory.PART, new IncidentHistory(current.bySubject(), current.loaded()), Map.of());
        writer.schedule(REFRESH, this::refresh);
    }
}
