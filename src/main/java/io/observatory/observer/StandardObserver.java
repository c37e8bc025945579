package io.observatory.observer;

import io.observatory.time.Scheduler;
import io.observatory.text.GoDuration;
import io.observatory.config.Outbound;
import io.observatory.config.SubjectSelector;
import io.observatory.text.Redaction;
import io.observatory.config.StandardObserverSettings;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.status.OutboundStatus;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Sinks;

/**
 * Xray's standard observer ({@code app/observatory/observer.go}). Each round re-reads the selection and drops the
 * statuses of outbounds no longer selected. Sequential mode probes one outbound, waits the interval, probes the next,
 * so a round of N outbounds takes about N × interval; concurrent mode probes all at once, waits for all, then waits
 * the interval. Each probe is an HTTP GET with a 5 s deadline; any response means alive.
 *
 * <p>Differs from Xray in one place: with nothing selected, Xray's sequential loop spins without sleeping; this one
 * waits the interval before looking again.
 *
 * <p>All state is confined to the scheduler's writer thread.
 */
final class StandardObserver implements Observer {

    private static final Logger log = LoggerFactory.getLogger(StandardObserver.class);

    /** Xray's probe deadline: 5 s for the whole request (connect, proxy and TLS handshakes, response headers). */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    private final StandardObserverSettings settings;
    private final URI probeUrl;
    private final SubjectSelector selector;
    private final ObserverContext context;
    private final Scheduler scheduler;
    private final Clock clock;
    private final StatusPublisher publisher;
    private final TreeMap<String, OutboundStatus> statuses = new TreeMap<>();
    private final Sinks.Empty<Void> stopSignal = Sinks.empty();
    private Scheduler.Cancellable nextStep = () -> { };
    private int unansweredInRound;
    private Set<String> selectedTags = Set.of();
    // volatile: set by the thread stopping the service, read on the writer thread.
    private volatile boolean stopped;

    /**
     * @param settings    validated observer settings
     * @param context     the writer, the prober, the outbounds (re-read every round) and where results go
     * @param clock       wall clock for the Xray timestamps
     * @param carriedOver statuses to start from (a predecessor's, after a configuration reload); those of outbounds
     *                    this observer does not select are dropped at its first round
     */
    StandardObserver(StandardObserverSettings settings, ObserverContext context, Clock clock,
            List<OutboundStatus> carriedOver) {
        this.settings = settings;
        this.probeUrl = settings.probeUri();
        this.selector = new SubjectSelector(settings.subjectSelector());
        this.context = context;
        this.scheduler = context.writer();
        this.clock = clock;
        this.publisher = new StatusPublisher(scheduler, context.statuses(), () -> List.copyOf(statuses.values()),
                () -> stopped);
        carriedOver.forEach(status -> statuses.put(status.tag(), status));
    }

    @Override
    public void start() {
        if (selector.isEmpty()) {
            log.info("standard observer not started: observatory.standard.subject-selector is empty");
            return;
        }
        log.info("standard observer started: selector {}, probe URL {} (unless an outbound sets its own), interval {},"
                + " {} mode", selector,
                Redaction.redact(settings.probeUrl()), GoDuration.format(settings.probeInterval()),
                settings.enableConcurrency() ? "concurrent" : "sequential");
        scheduler.execute(this::round);
    }

    @Override
    public void stop() {
        stopped = true;
        stopSignal.tryEmitEmpty();
        scheduler.execute(() -> nextStep.cancel());
    }

    @Override
    public void outboundsChanged() {
        if (!stopped) {
            prune(selector.select(context.outbounds().get()));
        }
    }

    private void round() {
        if (stopped) {
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
        if (stopped) {
            return;
        }
        if (index == selected.size()) {
            round();
            return;
        }
        probe(selected.get(index), () -> nextStep =
                scheduler.schedule(settings.probeInterval(), () -> probeInTurn(selected, index + 1)));
    }

    private void probeAll(List<Outbound> selected) {
        unansweredInRound = selected.size();
        for (Outbound outbound : selected) {
            probe(outbound, () -> {
                if (--unansweredInRound == 0) {
                    nextStep = scheduler.schedule(settings.probeInterval(), this::round);
                }
            });
        }
    }

    private void probe(Outbound outbound, Runnable then) {
        ProbeRequest request = new ProbeRequest(outbound, outbound.probeUrlOr(probeUrl), "GET", PROBE_TIMEOUT,
                ProbeRequest.Client.STANDARD_OBSERVER);
        context.prober().probe(request)
                .takeUntilOther(stopSignal.asMono())
                .subscribe(result -> scheduler.execute(() -> {
                    if (!stopped) {
                        if (selectedTags.contains(result.outboundTag())) {
                            record(result);
                        }
                        then.run();
                    }
                }));
    }

    private void record(ProbeResult result) {
        context.recorder().record(result);
        OutboundStatus previous = statuses.get(result.outboundTag());
        OutboundStatus next = OutboundStatus.afterProbe(previous, result, clock.instant(), settings.activeCheck());
        statuses.put(next.tag(), next);
        ProbeResult probe = next.lastProbe();
        log.debug("probe {}: success={} rtt={}ns status={} phases={} reason={}", next.tag(), probe.success(),
                probe.rttNanos(), probe.httpStatus(), probe.phases(), next.lastErrorReason());
        publisher.changed();
    }

    private void prune(List<Outbound> selected) {
        selectedTags = selected.stream().map(Outbound::tag).collect(Collectors.toSet());
        List<String> gone = statuses.keySet().stream().filter(tag -> !selectedTags.contains(tag)).toList();
        if (!gone.isEmpty()) {
            gone.forEach(statuses::remove);
            log.info("no longer observed (removed or deselected): {}", gone);
            publisher.changed();
        }
    }
}
