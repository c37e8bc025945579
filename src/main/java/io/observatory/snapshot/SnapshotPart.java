package io.observatory.snapshot;

import java.util.Objects;

/**
 * A capability's part of the one snapshot, and the name of its health source: what the capability publishes through
 * {@link ObservationUpdater#publish} (e.g. the mesh's view of its fleet, with the states of a hub's entry points), so
 * that a reader of the {@link Observation} sees the outbounds and the part of one publication. A capability declares
 * one as a constant and reads its value with {@link Observation#part}.
 *
 * @param name  the part's and its health source's name, e.g. {@code mesh}: how change reasons, the v1 API's
 *              {@code sources} and the status page name it; unique among the capabilities
 * @param type  the value's type, immutable
 * @param empty the value before the capability's first publication
 * @param <T>   the value's type
 */
public record SnapshotPart<T>(String name, Class<T> type, T empty) {

    public SnapshotPart {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(empty, "empty");
    }
}
