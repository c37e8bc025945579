package io.observatory.proxycore;

import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One supervised core process: started with a command line, its output forwarded line by line to the log with the
 * prefix {@code core:}, restarted after it exits with a delay that doubles after each run shorter than
 * {@link #STABLE_RUN} (up to the maximum) and returns to the first after a longer one, and stopped with SIGTERM, then
 * SIGKILL after {@link #STOP_GRACE}. Its PID is written beside its configuration, so that a core left behind by a
 * service that died without stopping it (SIGKILL, a crash) is stopped by the next start with the same work
 * directory. Confined to the scheduler's thread, but for the output reader's own thread.
 */
final class CoreProcess {

    private static final Logger log = LoggerFactory.getLogger("io.observatory.proxycore.core");

    /** A run at least this long resets the restart delay. */
    static final Duration STABLE_RUN = Duration.ofMinutes(1);

    /** How long a stopped core may take to exit after SIGTERM before it is killed. */
    static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final List<String> command;
    private final Path config;
    private final String configText;
    private final Path pidFile;
    private final Scheduler scheduler;
    private final Duration firstDelay;
    private final Duration maxDelay;
    private Duration nextDelay;
    // volatile: read by kill() from any thread.
    private volatile @Nullable Process process;
    private long startedNanos;
    private Scheduler.@Nullable Cancellable restart;
    // volatile: set by kill() from any thread.
    private volatile boolean stopped;

    /**
     * @param command    the command line
     * @param config     the configuration file the command names, written (mode 0600) before each start, so that a
     *                   start after something removed it (a cleaned temporary directory) still finds it
     * @param configText its content
     * @param pidFile    where the running core's PID is kept
     * @param scheduler  the supervisor's thread and clock: exits are handled and restarts timed on it
     * @param firstDelay the wait before the first restart
     * @param maxDelay   the longest wait between two restarts
     */
    CoreProcess(
            List<String> command,
            Path config,
            String configText,
            Path pidFile,
            Scheduler scheduler,
            Duration firstDelay,
            Duration maxDelay) {
        this.command = List.copyOf(command);
        this.config = config;
        this.configText = configText;
        this.pidFile = pidFile;
        this.scheduler = scheduler;
        this.firstDelay = firstDelay;
        this.maxDelay = maxDelay;
        this.nextDelay = firstDelay;
    }

    /** Stops a core a previous service left running with this PID file, then starts this one. Scheduler thread. */
    void start() {
        stopLeftOver();
        launch();
    }

    /** The running core's PID, if one runs. */
    Optional<Long> pid() {
        Process running = process;
        return running != null && running.isAlive() ? Optional.of(running.pid()) : Optional.empty();
    }

    // The exit's future only hands the exit to the scheduler, which handles it; nothing completes it exceptionally.
    @SuppressWarnings("FutureReturnValueIgnored")
    private void launch() {
        restart = null;
        Process started;
        try {
            CoreFiles.writePrivate(config, configText);
            started = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException | UncheckedIOException e) {
            log.error("core: cannot start {}: {}; next try in {}", command.get(0), e.getMessage(), format(nextDelay));
            scheduleRestart();
            return;
        }
        process = started;
        startedNanos = scheduler.nanoTime();
        forwardOutput(started);
        started.onExit().thenAccept(exited -> scheduler.execute(() -> exited(exited)));
        log.info("core: started (pid {}): {}", started.pid(), String.join(" ", command));
        try {
            Files.writeString(pidFile, Long.toString(started.pid()));
        } catch (IOException e) {
            log.warn(
                    "core: cannot write its PID file {} ({}): a core left behind by a killed service will not be"
                            + " stopped at the next start",
                    pidFile,
                    e.toString());
        }
    }

    /** Kills the core at once (SIGKILL), from any thread: when its own thread could not stop it in time. */
    void kill() {
        stopped = true;
        Process running = process;
        if (running != null) {
            running.destroyForcibly();
        }
    }

    private void exited(Process exited) {
        if (stopped || exited != process) {
            return;
        }
        Duration ran = Duration.ofNanos(scheduler.nanoTime() - startedNanos);
        if (ran.compareTo(STABLE_RUN) >= 0) {
            nextDelay = firstDelay;
        }
        log.error(
                "core: exited with code {} after {}; restarting in {}",
                exited.exitValue(),
                format(ran),
                format(nextDelay));
        scheduleRestart();
    }

    private void scheduleRestart() {
        Duration delay = nextDelay;
        Duration doubled = nextDelay.multipliedBy(2);
        nextDelay = doubled.compareTo(maxDelay) > 0 ? maxDelay : doubled;
        restart = scheduler.schedule(delay, () -> {
            if (!stopped) {
                launch();
            }
        });
    }

    /**
     * Stops the core and any restart pending, and deletes its PID file and configuration; returns once it has exited.
     * Scheduler thread.
     */
    void stop() {
        stopped = true;
        Scheduler.Cancellable pending = restart;
        if (pending != null) {
            pending.cancel();
        }
        Process running = process;
        if (running != null) {
            terminate(running.toHandle());
        }
        try {
            Files.deleteIfExists(pidFile);
            // It holds the inbounds' passwords: nothing needs it once the core is gone.
            Files.deleteIfExists(config);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot delete the core's PID file or configuration in " + pidFile.getParent(), e);
        }
        log.info("core: stopped");
    }

    /** A core whose PID is in the PID file and whose command line names this configuration: one left behind. */
    private void stopLeftOver() {
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile).strip());
        } catch (IOException | NumberFormatException e) {
            log.warn("core: ignoring the unreadable PID file {}: {}", pidFile, e.toString());
            return;
        }
        String config = command.get(command.size() - 1);
        ProcessHandle.of(pid)
                .filter(handle -> handle.info()
                        .arguments()
                        .map(arguments -> List.of(arguments).contains(config))
                        .orElse(false))
                .ifPresent(leftOver -> {
                    log.warn("core: stopping the core a previous run left behind (pid {})", pid);
                    terminate(leftOver);
                });
    }

    private static void terminate(ProcessHandle handle) {
        handle.destroy();
        try {
            handle.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            log.warn("core: pid {} did not exit within {} of SIGTERM; killing it", handle.pid(), format(STOP_GRACE));
            handle.destroyForcibly();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("waiting for the core (pid " + handle.pid() + ") to exit failed", e);
        } catch (InterruptedException e) {
            handle.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Logs each line the core prints, on a daemon thread of its own that ends with the core's output. */
    private static void forwardOutput(Process started) {
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader lines = new BufferedReader(
                            new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = lines.readLine()) != null) {
                            logLine(started.pid(), line);
                        }
                    } catch (IOException e) {
                        log.warn("core: stopped reading the output of pid {}: {}", started.pid(), e.toString());
                    }
                },
                "core-output-" + started.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Xray's and v2ray's {@code [Warning]} and {@code [Error]} lines at those levels, every other at info. */
    private static void logLine(long pid, String line) {
        if (line.contains("[Error]")) {
            log.error("core[{}]: {}", pid, line);
        } else if (line.contains("[Warning]")) {
            log.warn("core[{}]: {}", pid, line);
        } else {
            log.info("core[{}]: {}", pid, line);
        }
    }

    private static String format(Duration duration) {
        return GoDuration.format(duration);
    }
}
