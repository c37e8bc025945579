package io.observatory.observer;

import io.observatory.config.BurstObserverSettings;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.StandardObserverSettings;
import io.observatory.probe.Prober;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.StatusSink;
import io.observatory.stats.RttRing;
import io.observatory.text.TagList;
import io.observatory.time.Scheduler;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * Owns the one active observer and applies configurations to it, at start and on every reload, on the writer. A new
 * outbound list is swapped in and the running observer told (statuses of removed outbounds disappear at once);
 * changed observer settings replace the observer, and the successor starts from its predecessor's statuses, which the
 * sink holds, so outbounds that still exist keep theirs. Probe settings ({@code observatory.probe}) are fixed for the
 * process: changing them needs a restart, and a reload that changes them applies everything else and says so.
 *
 * <p>State is confined to the writer but for the stop flag and the active observer, which {@link #stop()} reads from
 * Spring's lifecycle thread: a reload in progress on the writer checks the flag again after creating a successor,
 * and so either leaves it unstarted or has published it for {@code stop()} to stop.
 */
public final class ObserverRuntime implements Reconfigurable {

    private static final Logger log = LoggerFactory.getLogger(ObserverRuntime.class);

    private final Scheduler writer;
    private final Clock clock;
    private final RandomGenerator random;
    private final ObserverContext context;
    /** The probe settings the prober was built with, for the process's lifetime. */
    private final ProbeSettings probe;
    // Writer state below.
    private boolean started;
    private ObservatoryConfig config;
    private List<Outbound> outbounds;
    // A previous process's burst samples, for the first observer only (ticker times of this process).
    private Map<String, List<RttRing.Sample>> restoredSamples = Map.of();
    // volatile: replaced on the writer, stopped from Spring's lifecycle thread.
    private volatile Observer observer = new IdleObserver();
    // volatile: set by the stopping thread, read on the writer.
    private volatile boolean stopped;

    /**
     * @param initial  the configuration validated at start-up
     * @param prober   sends every probe
     * @param writer   the observers' thread and time
     * @param clock    wall clock for Xray timestamps
     * @param random   source of burst offsets and per-outbound jitters
     * @param recorder hears every completed probe an observer keeps
     * @param statuses receives what changed in the active observer's statuses, on the writer, and holds them
     */
    public ObserverRuntime(
            ObservatoryConfig initial,
            Prober prober,
            Scheduler writer,
            Clock clock,
            RandomGenerator random,
            ProbeRecorder recorder,
            StatusSink statuses) {
        this.config = initial;
        this.probe = initial.probe();
        this.outbounds = initial.observedOutbounds();
        this.writer = writer;
        this.clock = clock;
        this.random = random;
        this.context = new ObserverContext(writer, prober, () -> outbounds, recorder, statuses);
    }

    /**
     * Creates and starts, on the writer, the observer the configuration in force asks for (the initial one, or a
     * reload that came first); a second call does nothing.
     */
    public void start() {
        writer.execute(() -> {
            if (!stopped && !started) {
                started = true;
                observer = create(config);
                restoredSamples = Map.of();
                observer.start();
            }
        });
    }

    /**
     * Takes statuses a previous process measured (the state file) as the ones the sink holds, before the first
     * observer starts: they are handed on at once, and the first observer starts from them as from a predecessor's,
     * so a fresh probe replaces each; a burst observer takes the samples too (each outbound's oldest first, times on
     * this process's ticker). Writer only.
     *
     * @throws IllegalStateException once the observer has started
     */
    public void restore(List<OutboundStatus> restored, Map<String, List<RttRing.Sample>> samples) {
        if (started) {
            throw new IllegalStateException("statuses restored after the observer started");
        }
        restoredSamples = Map.copyOf(samples);
        context.statuses().changed(restored, List.of());
    }

    /** The active observer's sample rings ({@link Observer#samples()}). Writer only. */
    public Map<String, List<RttRing.Sample>> samples() {
        return observer.samples();
    }

    /** Stops the active observer for good: its scheduled and in-flight probes are cancelled; reloads are ignored. */
    public void stop() {
        stopped = true;
        observer.stop();
        log.info("observer stopped: probes cancelled");
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.PROBING;
    }

    /**
     * Applies a reloaded configuration: outbounds first, then the observer if its settings changed; before
     * {@link #start()}, only records it. Writer only; does nothing once stopped.
     */
    @Override
    public void reconfigure(ObservatoryConfig next) {
        if (stopped) {
            return;
        }
        if (!next.probe().equals(probe)) {
            log.warn(
                    "observatory.probe changed ({}): probe settings take effect at the next start, the running ones"
                            + " stay in force; applying the rest",
                    changedKeys(probe, next.probe()));
        }
        boolean outboundsChanged = !next.observedOutbounds().equals(config.observedOutbounds());
        boolean observerChanged =
                !Objects.equals(next.standard(), config.standard()) || !Objects.equals(next.burst(), config.burst());
        config = next;
        outbounds = next.observedOutbounds();
        if (!started) {
            return;
        }
        if (!outboundsChanged && !observerChanged) {
            log.info("configuration reloaded: outbounds and observer unchanged");
            return;
        }
        if (observerChanged) {
            observer.stop();
            observer = create(next);
            if (next.standard() == null && next.burst() == null) {
                List<String> held = context.statuses().held().stream()
                        .map(OutboundStatus::tag)
                        .toList();
                context.statuses().changed(List.of(), held);
            }
            if (stopped) {
                return;
            }
            observer.start();
        } else {
            observer.outboundsChanged();
        }
        log.info(
                "configuration reloaded: {} outbounds {}, observer {}",
                outbounds.size(),
                TagList.of(outbounds.stream().map(Outbound::tag).toList()),
                observerChanged ? "restarted with new settings" : "unchanged");
    }

    /** The observer {@code settings} ask for; it starts from the statuses the sink holds. */
    private Observer create(ObservatoryConfig settings) {
        StandardObserverSettings standard = settings.standard();
        BurstObserverSettings burst = settings.burst();
        if (standard != null) {
            return standard.schedule() == StandardObserverSettings.Schedule.PER_OUTBOUND
                    ? new PerOutboundObserver("standard observer", standard, context, clock, random)
                    : new StandardObserver(standard, context, clock);
        }
        if (burst != null) {
            return new BurstObserver(burst, context, random, restoredSamples);
        }
        return new IdleObserver();
    }

    /** The keys whose values differ between two probe settings, e.g. {@code max-concurrent, headers}. */
    private static String changedKeys(ProbeSettings before, ProbeSettings after) {
        List<String> keys = new ArrayList<>();
        for (RecordComponent component : ProbeSettings.class.getRecordComponents()) {
            try {
                Method accessor = component.getAccessor();
                if (!Objects.equals(accessor.invoke(before), accessor.invoke(after))) {
                    keys.add(DataObjectPropertyName.toDashedForm(component.getName()));
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("a public record accessor cannot be called: " + component, e);
            }
        }
        return String.join(", ", keys);
    }
}
