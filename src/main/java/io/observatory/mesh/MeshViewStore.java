package io.observatory.mesh;

import io.observatory.time.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link MeshView}. Only the writer publishes, replacing the whole view; readers take the current
 * reference without locking; watchers hear each publication on the writer, in order, and must not block it.
 */
public final class MeshViewStore {

    private static final Logger log = LoggerFactory.getLogger(MeshViewStore.class);

    private final Scheduler writer;
    private final AtomicReference<MeshView> current = new AtomicReference<>(MeshView.EMPTY);
    // Confined to the writer.
    private final List<Consumer<MeshView>> watchers = new ArrayList<>();

    /** @param writer the one thread that publishes */
    public MeshViewStore(Scheduler writer) {
        this.writer = writer;
    }

    /** The latest view; never blocks. */
    public MeshView current() {
        return current.get();
    }

    /** Replaces the view, then tells each watcher; one that throws is logged and the others still hear it. Writer only. */
    void publish(MeshView view) {
        current.set(view);
        for (Consumer<MeshView> watcher : List.copyOf(watchers)) {
            try {
                watcher.accept(view);
            } catch (RuntimeException e) {
                log.error("mesh watcher {} failed; the others still hear the update", watcher, e);
            }
        }
    }

    /**
     * Starts following the view: on the writer, {@code watcher} receives the current view and then every later one,
     * so nothing published in between is missed or seen twice. It runs on the writer and must be quick.
     *
     * @return cancels the subscription on the writer
     */
    public Runnable watch(Consumer<MeshView> watcher) {
        writer.execute(() -> {
            watcher.accept(current.get());
            watchers.add(watcher);
        });
        return () -> writer.execute(() -> watchers.remove(watcher));
    }
}
