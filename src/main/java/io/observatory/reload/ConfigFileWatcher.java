package io.observatory.reload;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.ObservatoryConfigBinder;
import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Checks the external configuration files every interval and, when their content changed, loads the new
 * configuration and hands it on. Content is compared by digest, so kubelet's atomic symlink swap of a mounted
 * ConfigMap, an editor's rename-and-replace and an in-place write all count, and a touch without change does not.
 * New content is applied once it has stayed the same for one more check, so a file caught in the middle of a slow
 * in-place write is not applied half-written. An invalid new content, or a watched file that disappeared, is rejected
 * with one ERROR line and the running configuration keeps working; the same broken content is not reported again,
 * and its fix is applied like any other change.
 *
 * <p>Runs on its own {@link Scheduler}, so that reading and binding never hold up the writer and the checks are
 * tested with fake time; all its state is confined to that scheduler.
 */
final class ConfigFileWatcher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ConfigFileWatcher.class);

    private final List<Path> files;
    private final Function<ObservatoryConfig, List<Path>> sectionFiles;
    // The scheduler's: the configuration last applied, whose sections' files are watched too.
    private volatile ObservatoryConfig inForce;
    private final Duration interval;
    private final Scheduler scheduler;
    private final ConfigLoader loader;
    private final Consumer<ObservatoryConfig> changes;
    // volatile: set by Spring's lifecycle thread, read there and by the scheduler's.
    private volatile boolean running;
    private Scheduler.Cancellable nextCheck = () -> {};
    private @Nullable String lastDigest;
    private @Nullable String pendingDigest;

    /**
     * @param files     the configuration files to watch
     * @param sectionFiles the other files the sections of a configuration read ({@code ConfigSection#files}), also
     *                  watched: those of {@code initial}, then those of each configuration applied
     * @param initial   the configuration in force at start-up
     * @param interval  time between two checks
     * @param scheduler where the checks run
     * @param loader    reads and validates the files' content
     * @param changes   receives every valid new configuration, on the scheduler's thread
     */
    ConfigFileWatcher(
            List<Path> files,
            Function<ObservatoryConfig, List<Path>> sectionFiles,
            ObservatoryConfig initial,
            Duration interval,
            Scheduler scheduler,
            ConfigLoader loader,
            Consumer<ObservatoryConfig> changes) {
        this.files = List.copyOf(files);
        this.sectionFiles = sectionFiles;
        this.inForce = initial;
        this.interval = interval;
        this.scheduler = scheduler;
        this.loader = loader;
        this.changes = changes;
    }

    /** Starts checking; does nothing without files to watch. */
    @Override
    public void start() {
        if (files.isEmpty() && sectionFiles.apply(inForce).isEmpty()) {
            return;
        }
        running = true;
        scheduler.execute(() -> {
            lastDigest = digest();
            nextCheck = scheduler.schedule(interval, this::check);
        });
        log.info("watching {} every {} for configuration changes", watched(), GoDuration.format(interval));
    }

    /** One check: applies the files' content if it changed and stayed the same since the last check. */
    private void check() {
        if (!running) {
            return;
        }
        String digest = digest();
        if (digest.equals(lastDigest)) {
            pendingDigest = null;
        } else if (!digest.equals(pendingDigest)) {
            pendingDigest = digest;
        } else {
            pendingDigest = null;
            lastDigest = digest;
            apply();
        }
        nextCheck = scheduler.schedule(interval, this::check);
    }

    private void apply() {
        try {
            ObservatoryConfigBinder.Bound next = loader.load();
            next.warnings().forEach(warning -> log.warn("{}", warning));
            inForce = next.config();
            changes.accept(next.config());
        } catch (RejectedConfigException e) {
            log.error("configuration change rejected, the running configuration stays in force: {}", e.getMessage());
        } catch (RuntimeException e) {
            log.error("configuration change could not be applied, the running configuration stays in force", e);
        }
    }

    private String digest() {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (Path file : watched()) {
                sha256.update(file.toString().getBytes(StandardCharsets.UTF_8));
                try {
                    sha256.update(Files.readAllBytes(file));
                } catch (NoSuchFileException e) {
                    sha256.update((byte) 0);
                }
            }
            return HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException | IOException e) {
            log.warn("cannot read the configuration files {}: {}", watched(), e.toString());
            return lastDigest == null ? "" : lastDigest;
        }
    }

    /** The configuration files and the files the configuration in force reads. */
    private List<Path> watched() {
        List<Path> watched = new ArrayList<>(files);
        watched.addAll(sectionFiles.apply(inForce));
        return watched;
    }

    @Override
    public void stop() {
        running = false;
        scheduler.execute(() -> nextCheck.cancel());
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
