package io.observatory.proxycore;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.probe.XrayOutbounds;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.time.Scheduler;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the core the configuration's {@link CoreLayout} describes, on a thread of its own: writes its configuration
 * (mode 0600) to the work directory, starts and supervises the process ({@link CoreProcess}), and on a reload whose
 * layout runs another core (another file content, binary or command line) stops the old process and starts the new
 * one; the outbounds keep their tags and inbounds, so their statuses stay. Each problem of a layout (binary, file,
 * refused outbound) is logged once at ERROR, one line each, and the rest keeps running. Also carries the outbounds a
 * caller hands over as Xray objects (a mesh witness's entry points, {@link XrayOutbounds}), in the same core. Stops the
 * core before the service's other parts stop.
 */
final class ProxyCoreSupervisor implements SmartLifecycle, Reconfigurable, XrayOutbounds {

    private static final Logger log = LoggerFactory.getLogger(ProxyCoreSupervisor.class);

    /** The longest {@link #stop()} waits for the core to exit. */
    private static final Duration STOP_LIMIT = CoreProcess.STOP_GRACE.plusSeconds(5);

    private final ProxyCoreSection section;
    private final CoreLayouts layouts;
    private final Scheduler scheduler;
    private volatile ProxyCoreSettings settings;
    private volatile boolean running;
    // Scheduler thread only.
    private @Nullable CoreLayout current;
    // Written on the scheduler's thread; read by stop() to kill a core its thread could not stop in time.
    private volatile @Nullable CoreProcess process;
    private List<String> reported = List.of();

    /**
     * @param section   the section whose layouts the binder read
     * @param config    the configuration at start-up
     * @param scheduler the supervisor's own thread, on which processes are started, stopped and restarted
     */
    ProxyCoreSupervisor(ProxyCoreSection section, ObservatoryConfig config, Scheduler scheduler) {
        this.section = section;
        this.layouts = section.layouts();
        this.scheduler = scheduler;
        this.settings = config.section(section);
    }

    @Override
    public void start() {
        running = true;
        ProxyCoreSettings now = settings;
        scheduler.execute(() -> apply(now));
    }

    /**
     * {@inheritDoc}
     *
     * <p>The objects are checked by the core at once, on the caller's thread; the core is restarted with them on the
     * supervisor's.
     */
    @Override
    public Map<String, Outbound> carry(Map<String, String> outbounds) {
        List<CoreFile.CoreOutbound> parsed = new ArrayList<>();
        outbounds.forEach((tag, json) -> {
            try {
                parsed.add(CoreFile.outbound(tag, json));
            } catch (IllegalArgumentException e) {
                log.error("mesh entry point {}: its Xray outbound is {}; it is not probed", tag, e.getMessage());
            }
        });
        layouts.carry(parsed);
        CoreLayout layout = section.layout(settings);
        if (running) {
            // The settings in force when the task runs: a reload applied meanwhile is not undone.
            scheduler.execute(() -> apply(settings));
        }
        return layout.carried();
    }

    /** Takes the reloaded settings; the core is restarted on the supervisor's thread if its layout changed. */
    @Override
    public void reconfigure(ObservatoryConfig next) {
        ProxyCoreSettings now = next.section(section);
        settings = now;
        if (running) {
            scheduler.execute(() -> apply(now));
        }
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.PROBING;
    }

    private void apply(ProxyCoreSettings next) {
        if (!running) {
            return;
        }
        CoreLayout layout = section.layout(next);
        if (!layout.problems().equals(reported)) {
            layout.problems().stream().filter(line -> !reported.contains(line)).forEach(log::error);
            reported = layout.problems();
        }
        CoreLayout previous = current;
        boolean same = previous != null
                && previous.config().equals(layout.config())
                && Objects.equals(previous.command(), layout.command());
        current = layout;
        if (same) {
            return;
        }
        stopProcess();
        CoreCommand command = layout.command();
        if (!layout.runnable() || command == null) {
            if (next.enabled()) {
                log.warn(
                        "core: not running: {}",
                        layout.outbounds().isEmpty()
                                ? "no outbound of " + next.configFile() + " to probe"
                                : "no usable binary");
            }
            return;
        }
        Path directory;
        try {
            directory = CoreFiles.directory(next);
        } catch (UncheckedIOException e) {
            log.error("core: not started: {}", e.getMessage());
            current = null;
            return;
        }
        Path config = directory.resolve("core.json");
        CoreProcess started = new CoreProcess(
                command.run(config),
                config,
                layout.config(),
                directory.resolve("core.pid"),
                scheduler,
                next.restartDelay(),
                next.maxRestartDelay());
        process = started;
        started.start();
        log.info(
                "core: carrying {} outbounds of {} and {} mesh entry points ({})",
                layout.outbounds().size(),
                next.configFile() == null ? "no file" : next.configFile(),
                layout.carried().size(),
                command.style().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
    }

    private void stopProcess() {
        CoreProcess running = process;
        process = null;
        if (running != null) {
            running.stop();
        }
    }

    /** The running core's PID, if one runs; for tests and diagnostics. */
    Optional<Long> pid() {
        CompletableFuture<Optional<Long>> pid = new CompletableFuture<>();
        scheduler.execute(() -> {
            CoreProcess now = process;
            pid.complete(now == null ? Optional.empty() : now.pid());
        });
        return pid.join();
    }

    /** Stops the core and waits (at most {@link #STOP_LIMIT}) until it has exited. */
    @Override
    public void stop() {
        running = false;
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        scheduler.execute(() -> {
            try {
                stopProcess();
                stopped.complete(null);
            } catch (RuntimeException e) {
                stopped.completeExceptionally(e);
            }
        });
        try {
            stopped.get(STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            CoreProcess left = process;
            log.error("core: not stopped in time by its thread; killing it", e);
            if (left != null) {
                left.kill();
            }
        } catch (InterruptedException e) {
            CoreProcess left = process;
            if (left != null) {
                left.kill();
            }
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Started before the observers and the servers (a lower phase starts earlier), stopped after them, so their last
     * probes still find the core. Its start is asynchronous: the first probes may come before the core listens.
     */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1000;
    }

    @Override
    public String toString() {
        return "proxy core supervisor";
    }
}
