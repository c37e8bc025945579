package io.observatory.observer;

import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.config.SubjectSelector;
import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Xray's standard observer ({@code app/observatory/observer.go}) on Xray's schedule. Each round re-reads the selection
 * and drops the statuses of outbounds no longer selected. Sequential mode probes one outbound, waits the interval,
 * probes the next, so a round of N outbounds takes about N × interval; concurrent mode probes all at once, waits for
 * all, then waits the interval. Each probe is an HTTP GET with a deadline (Xray's 5 s unless
 * {@code observatory.standard.timeout} says otherwise); any response means alive.
 *
 * <p>Differs from Xray in one place: with nothing selected, Xray's sequential loop spins without sleeping; this one
 * waits the interval before looking again.
 *
 * <p>All state is confined to the scheduler's writer thread.
 */
final class StandardObserver implements Observer {

    private static final Logger log = LoggerFactory.getLogger(StandardObserver.class);

    private final StandardObserverSettings settings;
    private final SubjectSelector selector;
    private final ObserverContext context;
    private final Scheduler scheduler;
    private final StandardProbes probes;
    private Scheduler.Cancellable nextStep = () -> {};
    private int unansweredInRound;

    /**
     * Starts from the statuses its sink holds (a predecessor's, after a configuration reload); those of outbounds this
     * observer does not select are dropped at its first round.
     *
     * @param settings validated observer settings
     * @param context  the writer, the prober, the outbounds (re-read every round) and where results go
     * @param clock    wall clock for the Xray timestamps
     */
    StandardObserver(StandardObserverSettings settings, ObserverContext context, Clock clock) {
        this.settings = settings;
        this.selector = new SubjectSelector(settings.subjectSelector());
        this.context = context;
        this.scheduler = context.writer();
        this.probes = new StandardProbes(settings, context, clock);
    }

    @Override
    public void start() {
        if (selector.isEmpty()) {
            log.info("standard observer not started: observatory.standard.subject-selector is empty");
            // Selects nothing: a predecessor's statuses go now, not frozen until the outbounds next change.
            scheduler.execute(this::outboundsChanged);
            return;
        }
        log.info(
                "standard observer started: selector {}, probe URL {} (unless an outbound sets its own), interval {},"
                        + " timeout {}, {} mode",
                selector,
                Redaction.redact(settings.probeUrl()),
                GoDuration.format(settings.probeInterval()),
                GoDuration.format(settings.timeout()),
                settings.enableConcurrency() ? "concurrent" : "sequential");
        scheduler.execute(this::round);
    }

    @Override
    public void stop() {
        probes.stop();
        scheduler.execute(() -> nextStep.cancel());
    }

    @Override
    public void outboundsChanged() {
        if (!probes.stopped()) {
            prune(selector.select(context.outbounds().get()));
        }
    }

    private void round() {
        if (probes.stopped()) {
            return;
        }
        List<Outbound> selected = selector.select(context.outbounds().get());
        prune(selected);
        if (selected.isEmpty()) {
            nextStep = scheduler.schedule(settings.probeInterval(), this::round);
        } else if (settings.enableConcurrency()) {
            probeAll(selected);
        } else {
            probeInTurn(selected, 0);
        }
    }

    private void probeInTurn(List<Outbound> selected, int index) {
        if (probes.stopped()) {
            return;
        }
        if (index == selected.size()) {
            round();
            return;
        }
        probes.probe(
                selected.get(index),
                () -> true,
                status -> nextStep =
                        scheduler.schedule(settings.probeInterval(), () -> probeInTurn(selected, index + 1)));
    }

    private void probeAll(List<Outbound> selected) {
        unansweredInRound = selected.size();
        for (Outbound outbound : selected) {
            probes.probe(outbound, () -> true, status -> {
                if (--unansweredInRound == 0) {
                    nextStep = scheduler.schedule(settings.probeInterval(), this::round);
                }
            });
        }
    }

    private void prune(List<Outbound> selected) {
        probes.select(selected.stream().map(Outbound::tag).collect(Collectors.toSet()));
    }
}
