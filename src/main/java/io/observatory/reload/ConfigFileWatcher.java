package io.observatory.reload;

import io.observatory.text.GoDuration;
import io.observatory.config.ObservatoryConfig;
import io.observatory.observer.ObserverRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Checks the external configuration files every interval and, when their content changed, applies the new
 * configuration to the running observer. Content is compared by digest, so kubelet's atomic symlink swap of a mounted
 * ConfigMap, an editor's rename-and-replace and an in-place write all count, and a touch without change does not.
 * New content is applied once it has stayed the same for one more check, so a file caught in the middle of a slow
 * in-place write is not applied half-written.
 * An invalid new content — or a watched file that disappeared — is rejected with one ERROR line and the running
 * configuration keeps working; the same broken content is not reported again, and fixing it is applied at the next
 * check.
 */
final class ConfigFileWatcher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ConfigFileWatcher.class);

    private final List<Path> files;
    private final Duration interval;
    private final ConfigLoader loader;
    private final ObserverRuntime runtime;
    // volatile: written by the watcher thread, read by Spring's lifecycle thread.
    private volatile ScheduledExecutorService executor;
    private String lastDigest;
    private String pendingDigest;

    /**
     * @param files the files to watch; empty for a watcher that never starts (reload off)
     * @param interval time between two checks
     * @param loader reads and validates the files' content; unused when {@code files} is empty
     * @param runtime receives every valid new configuration
     */
    ConfigFileWatcher(List<Path> files, Duration interval, ConfigLoader loader, ObserverRuntime runtime) {
        this.files = List.copyOf(files);
        this.interval = interval;
        this.loader = loader;
        this.runtime = runtime;
    }

    @Override
    public void start() {
        if (files.isEmpty()) {
            return;
        }
        lastDigest = digest();
        ScheduledThreadPoolExecutor watcher = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "config-watcher");
            thread.setDaemon(true);
            return thread;
        });
        watcher.scheduleWithFixedDelay(this::check, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
        executor = watcher;
        log.info("watching {} every {} for configuration changes", files, GoDuration.format(interval));
    }

    /** Runs one check now: applies the files' content if it changed since the last check. Watcher thread only. */
    void check() {
        String digest = digest();
        if (digest.equals(lastDigest)) {
            pendingDigest = null;
            return;
        }
        if (!digest.equals(pendingDigest)) {
            // A write in progress: apply only content that stayed the same for a whole interval.
            pendingDigest = digest;
            return;
        }
        pendingDigest = null;
        lastDigest = digest;
        try {
            ObservatoryConfig next = loader.load(warning -> log.warn("{}", warning));
            runtime.apply(next);
        } catch (RejectedConfigException e) {
            log.error("configuration change rejected, the running configuration stays in force: {}",
                    e.getMessage());
        } catch (RuntimeException e) {
            log.error("configuration change could not be applied, the running configuration stays in force", e);
        }
    }

    private String digest() {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (Path file : files) {
                sha256.update(file.toString().getBytes(StandardCharsets.UTF_8));
                try {
                    sha256.update(Files.readAllBytes(file));
                } catch (NoSuchFileException e) {
                    sha256.update((byte) 0);
                }
            }
            return HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException | IOException e) {
            log.warn("cannot read the configuration files {}: {}", files, e.toString());
            return lastDigest == null ? "" : lastDigest;
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService current = executor;
        if (current != null) {
            current.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        ScheduledExecutorService current = executor;
        return current != null && !current.isShutdown();
    }

    /** After the observer lifecycle (phase 0) starts, before it stops. */
    @Override
    public int getPhase() {
        return 100;
    }
}
