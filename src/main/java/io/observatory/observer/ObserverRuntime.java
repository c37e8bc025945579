package io.observatory.observer;

import io.observatory.time.Scheduler;
import io.observatory.config.BurstObserverSettings;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.config.Reconfigurable;
import io.observatory.config.StandardObserverSettings;
import io.observatory.probe.Prober;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the one active observer and applies configurations to it, at start and on every reload. A new outbound list
 * is swapped in atomically and the running observer told (statuses of removed outbounds disappear at once); changed
 * observer settings replace the observer, and the successor starts from its predecessor's statuses, so outbounds
 * that still exist keep theirs. Probe settings ({@code observatory.probe}) are fixed for the process: changing them
 * needs a restart, and a reload that changes them applies everything else and says so.
 */
public final class ObserverRuntime implements Reconfigurable {

    private static final Logger log = LoggerFactory.getLogger(ObserverRuntime.class);

    private final Prober prober;
    private final Scheduler scheduler;
    private final Clock clock;
    private final RandomGenerator random;
    private final ObservationStore store;
    private final AtomicReference<List<Outbound>> outbounds;
    // Guarded by this: start, stop and reloads arrive on different threads (lifecycle, config watcher).
    private ObservatoryConfig config;
    private Observer observer;
    private boolean stopped;

    /**
     * @param initial the configuration validated at startup
     * @param prober sends every probe
     * @param scheduler the observers' writer thread and time
     * @param clock wall clock for Xray timestamps
     * @param random source of burst offsets
     * @param store where the active observer publishes
     */
    public ObserverRuntime(ObservatoryConfig initial, Prober prober, Scheduler scheduler, Clock clock,
            RandomGenerator random, ObservationStore store) {
        this.config = initial;
        this.prober = prober;
        this.scheduler = scheduler;
        this.clock = clock;
        this.random = random;
        this.store = store;
        this.outbounds = new AtomicReference<>(initial.outbounds());
    }

    /** Creates and starts the observer the initial configuration asks for. */
    public synchronized void start() {
        observer = create(config, List.of());
        observer.start();
    }

    /** Stops the active observer for good; later reloads are ignored. */
    public synchronized void stop() {
        stopped = true;
        if (observer != null) {
            observer.stop();
            log.info("observer stopped: probes cancelled");
        }
    }

    /**
     * Applies a reloaded configuration: outbounds first, then the observer if its settings changed; a replaced
     * observer's successor starts from its statuses. Probe settings are kept (they need a restart). Does nothing once
     * stopped.
     */
    @Override
    public synchronized void reconfigure(ObservatoryConfig next) {
        if (stopped || observer == null) {
            return;
        }
        if (!next.probe().equals(config.probe())) {
            log.warn("observatory.probe changed: probe settings take effect after a restart; applying the rest");
        }
        boolean outboundsChanged = !next.outbounds().equals(config.outbounds());
        boolean observerChanged = !Objects.equals(next.standard(), config.standard())
                || !Objects.equals(next.burst(), config.burst());
        if (!outboundsChanged && !observerChanged) {
            log.info("configuration reloaded: no change to outbounds or observer");
            return;
        }
        outbounds.set(next.outbounds());
        if (observerChanged) {
            observer.stop();
            observer = create(next, store.current().statuses());
            if (next.standard() == null && next.burst() == null) {
                store.publish(Observation.EMPTY);
            }
            observer.start();
        } else {
            observer.outboundsChanged();
        }
        log.info("configuration reloaded: outbounds [{}], observer {}",
                next.outbounds().stream().map(Outbound::tag).collect(Collectors.joining(", ")),
                observerChanged ? "restarted with new settings" : "unchanged");
        config = next;
    }

    private Observer create(ObservatoryConfig settings, List<OutboundStatus> carriedOver) {
        StandardObserverSettings standard = settings.standard();
        BurstObserverSettings burst = settings.burst();
        if (standard != null) {
            return new StandardObserver(standard, outbounds::get, prober, scheduler, clock, store,
                    carriedOver);
        }
        if (burst != null) {
            return new BurstObserver(burst, outbounds::get, prober, scheduler, random, store,
                    carriedOver);
        }
        return new IdleObserver();
    }
}
