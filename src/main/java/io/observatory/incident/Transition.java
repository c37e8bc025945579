package io.observatory.incident;

import io.observatory.snapshot.Condition;
import java.time.Instant;
import java.util.Objects;

/**
 * What the {@link IncidentTracker} saw change on the writer, for the store to record: a subject entering a bad state
 * (or another one), or leaving it.
 */
public sealed interface Transition {

    /** When the writer saw it (wall clock). */
    Instant at();

    /** The subject, e.g. {@code outbound/a}. */
    String subject();

    /**
     * The subject is in the bad state {@code condition} from {@code at}: opens an incident unless one of the same kind
     * is open (another replica's, or this one's before a restart); resolves an open one of another kind first.
     *
     * @param source who judges it, see {@link Incident#source}
     */
    record Open(Condition condition, String source, Instant at) implements Transition {

        public Open {
            Objects.requireNonNull(condition, "condition");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(at, "at");
        }

        @Override
        public String subject() {
            return condition.subject();
        }
    }

    /**
     * The subject left the bad state {@code kind} at {@code at}: resolves the open incident of that kind opened before.
     *
     * @param resolution why, e.g. {@code recovered}
     */
    record Resolve(String subject, String kind, Instant at, String resolution) implements Transition {

        public Resolve {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(resolution, "resolution");
        }
    }
}
