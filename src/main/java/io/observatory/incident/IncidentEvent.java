package io.observatory.incident;

import java.util.Objects;

/**
 * An incident opened or resolved, as the database recorded it. With several replicas on one database every replica
 * hears every event; exactly one wrote it ({@link #ours}), and only that one tells people.
 *
 * @param type     opened or resolved
 * @param incident the incident as stored after the change
 * @param ours     whether this replica's write made the change (the database decided: one insert of an open incident
 *                 per subject, one update resolving it); false for an incident another replica, or this one before a
 *                 restart, had already stored
 */
public record IncidentEvent(Type type, Incident incident, boolean ours) {

    public IncidentEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(incident, "incident");
    }

    /** What happened to the incident. */
    public enum Type {
        OPENED,
        RESOLVED
    }
}
