package io.observatory.observer;

import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.probe.Prober;
import io.observatory.status.Observation;
import io.observatory.status.ObservationStore;
import io.observatory.status.OutboundStatus;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
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
public final class ObserverRuntime {

    private static final Logger log = LoggerFactory.getLogger(ObserverRuntime.class);

    private final Prober prober;
    private final ObserverScheduler scheduler;
    private final Clock clock;
    private final RandomGenerator random;
    private final ObservationStore store;
    private final AtomicReference<List<Outbound>> outbounds;
    private final List<Consumer<ObservatoryConfig>> listeners = new CopyOnWriteArrayList<>();
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
    public ObserverRuntime(ObservatoryConfig initial, Prober prober, ObserverScheduler scheduler, Clock clock,
            RandomGenerator random, ObservationStore store) {
        this.config = initial;
        this.prober = prober;
        this.scheduler = scheduler;
        this.clock = clock;
        this.random = random;
        this.store = store;
        this.outbounds = new AtomicReference<>(initial.outbounds());
    }

    /**
     * Registers {@code listener} for every configuration applied by a reload (not the initial one), called on the
     * reloading thread once the new outbounds are in place and before the observer is told.
     */
    public void addListener(Consumer<ObservatoryConfig> listener) {
        listeners.add(listener);
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
     * Applies a new, already validated configuration atomically: outbounds first, then the observer if its settings
     * changed. Does nothing once stopped.
     */
    public synchronized void apply(ObservatoryConfig next) {
        if (stopped || observer == null) {
            return;
        }
        if (!next.probe().equals(config.probe())) {
            log.warn("observatory.probe changed: probe settings take effect after a restart; applying the rest");
        }
        ObservatoryConfig applied = new ObservatoryConfig(next.outbounds(), next.standard(), next.burst(),
                config.probe(), next.passive(), next.availability(), next.apiAuth());
        boolean outboundsChanged = !applied.outbounds().equals(config.outbounds());
        boolean observerChanged = !applied.standard().equals(config.standard())
                || !applied.burst().equals(config.burst());
        boolean listenedSettingsChanged = !applied.passive().equals(config.passive())
                || !applied.availability().equals(config.availability())
                || !applied.apiAuth().equals(config.apiAuth());
        if (!outboundsChanged && !observerChanged && !listenedSettingsChanged) {
            log.info("configuration reloaded: no change to outbounds, observer, passive, availability or API settings");
            return;
        }
        outbounds.set(applied.outbounds());
        // Listeners first: their work queued on the writer thread then precedes the observer's reaction, so a
        // removed outbound leaves the verdicts before the observer's next snapshot drops its status.
        for (Consumer<ObservatoryConfig> listener : listeners) {
            try {
                listener.accept(applied);
            } catch (RuntimeException e) {
                log.error("configuration listener {} failed; the observer still takes the new configuration", listener,
                        e);
            }
        }
        if (observerChanged) {
            observer.stop();
            observer = create(applied, store.current().statuses());
            if (applied.standard().isEmpty() && applied.burst().isEmpty()) {
                store.publish(Observation.EMPTY);
            }
            observer.start();
        } else if (outboundsChanged) {
            observer.outboundsChanged();
        }
        log.info("configuration reloaded: outbounds [{}], observer {}",
                applied.outbounds().stream().map(Outbound::tag).collect(Collectors.joining(", ")),
                observerChanged ? "restarted with new settings" : "unchanged");
        config = applied;
    }

    private Observer create(ObservatoryConfig settings, List<OutboundStatus> carriedOver) {
        if (settings.standard().isPresent()) {
            return new StandardObserver(settings.standard().get(), outbounds::get, prober, scheduler, clock, store,
                    carriedOver);
        }
        if (settings.burst().isPresent()) {
            return new BurstObserver(settings.burst().get(), outbounds::get, prober, scheduler, random, store,
                    carriedOver);
        }
        return new IdleObserver();
    }
}
