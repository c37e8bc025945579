package io.observatory.incident.history;

import io.observatory.incident.Incident;
import io.observatory.snapshot.SnapshotPart;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Every subject's incidents of the last {@link HistoryKeeper#WINDOW}, as the database recorded them: by subject, newest
 * first, at most {@link #PER_SUBJECT} each. Immutable; published whole as the snapshot's part {@link #PART}. Costs about
 * 500 bytes per incident kept.
 *
 * @param bySubject by subject, its incidents newest first
 * @param loaded    whether the database's history was read (false while the database has not answered yet)
 */
public record IncidentHistory(Map<String, List<Incident>> bySubject, boolean loaded) {

    /** The most incidents kept per subject: a flapping one shows its latest. */
    public static final int PER_SUBJECT = 500;

    /** Before the database's history is read. */
    public static final IncidentHistory EMPTY = new IncidentHistory(Map.of(), false);

    /** The incidents' part of the snapshot: the history the status page shows. */
    public static final SnapshotPart<IncidentHistory> PART =
            new SnapshotPart<>("incidents", IncidentHistory.class, EMPTY);

    public IncidentHistory {
        bySubject = Map.copyOf(bySubject);
    }

    /** The open incident of {@code subject}, if any. */
    public @Nullable Incident open(String subject) {
        List<Incident> incidents = bySubject.getOrDefault(subject, List.of());
        return incidents.isEmpty() || !incidents.get(0).open() ? null : incidents.get(0);
    }

    /** When the newest incident of {@code subject} opened; {@link Instant#MIN} when it has none. */
    Instant latest(String subject) {
        List<Incident> incidents = bySubject.getOrDefault(subject, List.of());
        return incidents.isEmpty() ? Instant.MIN : incidents.get(0).openedAt();
    }
}
