package io.observatory.incident.notify;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import java.util.List;
import java.util.Objects;

/**
 * What one message tells: the incidents opened, resolved or still open since the last one, in the order they
 * happened. Immutable.
 *
 * @param entries at least one
 */
public record Notice(List<Entry> entries) {

    public Notice {
        entries = List.copyOf(entries);
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("entries: none (expected: at least one)");
        }
    }

    /**
     * One incident in a message.
     *
     * @param change   what happened to it
     * @param incident the incident as stored after it
     */
    public record Entry(Change change, Incident incident) {

        public Entry {
            Objects.requireNonNull(change, "change");
            Objects.requireNonNull(incident, "incident");
        }

        /** An entry for a recorded event. */
        static Entry of(IncidentEvent event) {
            return new Entry(
                    event.type() == IncidentEvent.Type.OPENED ? Change.OPENED : Change.RESOLVED, event.incident());
        }
    }

    /** What happened to an incident. */
    public enum Change {
        OPENED,
        RESOLVED,
        /** Still open after the repeat interval. */
        STILL_OPEN
    }

    /** How many entries are of {@code change}. */
    public long count(Change change) {
        return entries.stream().filter(entry -> entry.change() == change).count();
    }
}
