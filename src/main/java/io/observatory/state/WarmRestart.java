package io.observatory.state;

import io.observatory.config.ObservatoryConfig;
import io.observatory.observer.ObserverRuntime;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.snapshot.Checkpoint;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.time.Scheduler;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;

/**
 * Warm restart ({@code observatory.state.directory}). Once every bean exists and before any server opens a port, it
 * reads the state file and hands what is still valid ({@link StateRestore}) to the verdicts (passive states), to the
 * observer runtime, which publishes the statuses at once and starts its first observer from them, and to each
 * capability's {@link Checkpoint}; a missing file is a cold start, and a corrupt, truncated or foreign file is one log
 * line and a cold start. While running, every publication of the observation (a capability's part included) makes the
 * {@link StateWriter} write the file, at most once per {@code write-interval}; at graceful shutdown, after the
 * observer stopped, it writes a last time.
 */
public final class WarmRestart implements SmartInitializingSingleton, SmartLifecycle, Reconfigurable {

    private static final Logger log = LoggerFactory.getLogger(WarmRestart.class);
    private static final Duration RESTORE_TIMEOUT = Duration.ofSeconds(30);
    /** What a checkpoint restores from when the file has no part of it: nothing saved. */
    private static final byte[] NO_PART = new byte[0];

    private final StateSettings settings;
    private final Scheduler writer;
    private final Clock clock;
    private final ObserverRuntime runtime;
    private final List<Checkpoint> checkpoints;
    private final ObservationUpdater updater;
    private final ObservationStore store;
    private final StateWriter files;
    // Writer state: the configuration in force, for what each status measures.
    private ObservatoryConfig config;
    private Runnable unwatchObservation = () -> {};
    // volatile: started and stopped by Spring's lifecycle thread, read by isRunning from any.
    private volatile boolean running;

    /**
     * @param initial the configuration validated at start-up; {@code observatory.state} must be enabled
     * @param writer  the writer: restores and snapshots run there
     * @param clock   wall clock: entry ages and the file's times
     */
    public WarmRestart(
            ObservatoryConfig initial,
            Scheduler writer,
            Clock clock,
            ObserverRuntime runtime,
            ObservationUpdater updater,
            List<Checkpoint> checkpoints) {
        this.settings = initial.section(StateSettings.SECTION);
        this.config = initial;
        this.writer = writer;
        this.clock = clock;
        this.runtime = runtime;
        this.checkpoints = List.copyOf(checkpoints);
        this.updater = updater;
        this.store = updater.store();
        this.files = new StateWriter(settings.file(), settings.writeInterval(), writer, this::snapshot);
    }

    /** Restores from the state file, before any lifecycle (servers, observer, capabilities) starts. */
    @Override
    public void afterSingletonsInstantiated() {
        Path file = settings.file();
        StateFile.Read read;
        try {
            read = StateFile.read(file);
        } catch (IOException e) {
            log.warn("warm restart: state file {} unreadable ({}); starting cold", file, e.toString());
            return;
        }
        if (read instanceof StateFile.Missing) {
            log.info("warm restart: no state file {} yet; starting cold", file);
        } else if (read instanceof StateFile.Unusable unusable) {
            log.warn("warm restart: ignoring state file {} ({}); starting cold", file, unusable.why());
        } else if (read instanceof StateFile.Loaded loaded) {
            restore(file, loaded.payload());
        }
    }

    private void restore(Path file, byte[] payload) {
        CompletableFuture<String> restored = CompletableFuture.supplyAsync(
                () -> {
                    Instant now = clock.instant();
                    Duration maxAge = settings.maxAge(config, checkpoints);
                    StateRestore.Restoration restoration =
                            StateRestore.select(payload, config, now, writer.nanoTime(), maxAge);
                    updater.restorePassive(restoration.passive());
                    runtime.restore(restoration.statuses(), restoration.samples());
                    List<Checkpoint.Restored> parts = new ArrayList<>();
                    for (Checkpoint checkpoint : checkpoints) {
                        byte[] part = restoration.parts().getOrDefault(checkpoint.name(), NO_PART);
                        try {
                            parts.add(checkpoint.restore(part, config, now, maxAge));
                        } catch (IllegalArgumentException e) {
                            // One capability's unreadable part costs only its own state.
                            log.warn(
                                    "warm restart: ignoring the part {} of state file {} ({}); it starts cold",
                                    checkpoint.name(),
                                    file,
                                    e.getMessage());
                        }
                    }
                    return restoration.summary(parts);
                },
                writer::execute);
        try {
            log.info("warm restart: {} from {}", restored.get(RESTORE_TIMEOUT.toSeconds(), TimeUnit.SECONDS), file);
        } catch (ExecutionException e) {
            log.warn(
                    "warm restart: ignoring state file {} ({}); starting cold",
                    file,
                    e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "warm restart: the writer did not restore " + file + " within " + RESTORE_TIMEOUT.toSeconds()
                            + " s",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restoring " + file, e);
        }
    }

    private StateSnapshot snapshot() {
        Map<String, Checkpoint.Taken> parts = new LinkedHashMap<>();
        checkpoints.forEach(checkpoint -> parts.put(checkpoint.name(), checkpoint.take()));
        return new StateSnapshot(
                clock.instant(),
                writer.nanoTime(),
                config,
                store.current(),
                runtime.samples(),
                updater.passiveEntries(),
                parts);
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.PERSISTENCE;
    }

    @Override
    public void reconfigure(ObservatoryConfig next) {
        config = next;
    }

    @Override
    public void start() {
        // A first write at once (what was restored, or a cold start's empty state), then one after each change.
        unwatchObservation = store.watch(observation -> files.changed(), update -> files.changed());
        running = true;
    }

    @Override
    public void stop() {
        unwatchObservation.run();
        files.close();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Stops after the observer and the capabilities (higher phases stop first), so the last write holds their last
     * results.
     */
    @Override
    public int getPhase() {
        return 0;
    }
}
