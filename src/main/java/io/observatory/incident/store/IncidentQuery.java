package io.observatory.incident.store;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What to list: incidents whose subject starts with {@code subjectPrefix}, in {@code state}, overlapping
 * [{@code from}, {@code to}), newest first, after {@code after}, at most {@code limit}.
 *
 * @param subjectPrefix e.g. {@code server/} or {@code outbound/eu-}; empty for every subject
 * @param state         open, resolved or any
 * @param from          the range's start: incidents that ended before it are left out; null for no bound
 * @param to            the range's end: incidents that opened at or after it are left out; null for no bound
 * @param after         where the previous page ended; null for the first page
 * @param limit         how many at most, 1-{@value #MAX_LIMIT}
 */
public record IncidentQuery(
        String subjectPrefix,
        State state,
        @Nullable Instant from,
        @Nullable Instant to,
        @Nullable Position after,
        int limit) {

    /** The most incidents one page holds. */
    public static final int MAX_LIMIT = 1000;

    public IncidentQuery {
        Objects.requireNonNull(subjectPrefix, "subjectPrefix");
        Objects.requireNonNull(state, "state");
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: 1-" + MAX_LIMIT + ")");
        }
    }

    /** Which incidents by their state. */
    public enum State {
        ANY,
        OPEN,
        RESOLVED
    }

    /**
     * The last incident of a page, where the next one starts.
     *
     * @param openedAt its opening
     * @param id       its id
     */
    public record Position(Instant openedAt, String id) {

        public Position {
            Objects.requireNonNull(openedAt, "openedAt");
            Objects.requireNonNull(id, "id");
        }
    }
}
