package io.observatory.snapshot;

import java.time.Instant;
import java.util.List;

/**
 * A capability's port for the bad states its part of the snapshot shows: implemented by a capability (the mesh's
 * servers, entry points, witnesses and routes), read by whatever remembers or tells of them (incidents). Asked on the
 * writer each time the part is replaced, so it must be quick: O(what the part holds).
 *
 * @param <T> the part's value type
 */
public interface ConditionSource<T> {

    /** The part whose conditions this source tells. */
    SnapshotPart<T> part();

    /**
     * Every condition {@code value} shows at {@code now}, each subject at most once.
     *
     * @param now the writer's wall clock
     */
    List<Condition> conditions(T value, Instant now);

    /**
     * Whether a subject of {@code value} without a condition is known to be well, rather than not judged yet: false
     * while a freshly started process has not heard enough to judge (a hub before its witnesses' first reports), so
     * that what was open before a restart is not resolved only because nothing is known yet. True by default.
     *
     * @param now the writer's wall clock
     */
    default boolean settled(T value, Instant now) {
        return true;
    }
}
