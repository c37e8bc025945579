package io.observatory.stream;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A conflating backlog: only the latest state is due, since each message carries the whole of it (a mesh view). A slow
 * client skips states and never falls behind. One reference per stream.
 *
 * @param <M> the message type
 */
public final class Latest<M> implements Backlog<M> {

    private final AtomicReference<@Nullable Supplier<M>> due = new AtomicReference<>();

    /** Makes {@code state} the one due, replacing any not sent yet; built when taken. */
    public void offer(Supplier<M> state) {
        due.set(state);
    }

    @Override
    public @Nullable M take() {
        Supplier<M> state = due.getAndSet(null);
        return state == null ? null : state.get();
    }

    @Override
    public void putBack(M message) {
        due.compareAndSet(null, () -> message);
    }

    @Override
    public boolean isEmpty() {
        return due.get() == null;
    }

    @Override
    public void clear() {
        due.set(null);
    }
}
