package io.observatory.observer;

import io.observatory.config.BurstObserverSettings;
import io.observatory.config.Outbound;
import io.observatory.config.PingConfig;
import io.observatory.config.SubjectSelector;
import io.observatory.health.ActiveCheck;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.RttRing;
import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import io.observatory.time.Scheduler;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Xray's burst observer ({@code app/observatory/burst/healthping.go}). At start every selected outbound is probed
 * once at once; every cycle (interval × sampling) each selected outbound gets {@code sampling} probes at uniformly
 * random offsets within the cycle, and a new cycle cancels the previous cycle's probes that have not started. Results
 * go into a ring of {@code sampling} slots per outbound, valid for 2 × cycle. After a failure, when a connectivity URL
 * is configured, it is probed directly; if that fails too the network is down and the sample is discarded.
 *
 * <p>Each change of an outbound's window is judged once for the active state ({@link BurstWindows}). A response
 * whose status the {@link ActiveCheck} does not expect is a failed sample (no connectivity check: the path worked).
 *
 * <p>Differs from Xray in two places: a result arriving for an outbound deselected in the meantime is dropped instead
 * of being stored until the next cleanup; a result of a probe still in flight when the next cycle starts is recorded,
 * where Xray's cancelled {@code doCheck} stops reading them.
 *
 * <p>All state is confined to the scheduler's writer thread.
 */
final class BurstObserver implements Observer {

    private static final Logger log = LoggerFactory.getLogger(BurstObserver.class);
    private static final Outbound CONNECTIVITY = Outbound.direct("connectivity-check");

    private final PingConfig ping;
    private final URI destination;
    private final @Nullable URI connectivity;
    private final ActiveCheck check;
    private final BurstWindows windows;
    private final SubjectSelector selector;
    private final ObserverContext context;
    private final Scheduler scheduler;
    private final RandomGenerator random;
    private final StatusPublisher publisher;
    private final Map<String, RttRing> rings = new TreeMap<>();
    private final Map<String, String> lastFailureReasons = new HashMap<>();
    // Outbounds whose ring holds only restored samples: their restored statuses (the sink's) are shown as they were
    // saved until a sample of this process arrives, whose window then starts from their active state.
    private final Set<String> restoredOnly = new HashSet<>();
    private final Sinks.Empty<Void> stopSignal = Sinks.empty();
    private List<Scheduler.Cancellable> pendingProbes = new ArrayList<>();
    private Scheduler.Cancellable nextCycle = () -> {};
    private Scheduler.Cancellable expiryRefresh = () -> {};
    private Set<String> selectedTags = Set.of();
    private boolean networkDown;
    // volatile: set by the thread stopping the service, read on the writer thread.
    private volatile boolean stopped;

    /**
     * An observer that shows the statuses its sink holds (a predecessor's, after a configuration reload) for selected
     * outbounds until their first sample arrives, and whose first judgement of a window starts from their active
     * state.
     *
     * @param settings validated observer settings (defaults and clamps applied)
     * @param context  the writer (sample ages are measured on its ticker), the prober, the outbounds (re-read every
     *                 cycle) and where results go
     * @param random   source of the probe offsets within a cycle
     */
    BurstObserver(BurstObserverSettings settings, ObserverContext context, RandomGenerator random) {
        this(settings, context, random, Map.of());
    }

    /**
     * An observer that starts from a previous process's samples (the state file) as well.
     *
     * @param restored each restored outbound's samples, oldest first, with times on this process's ticker, for the
     *                 outbounds whose status the sink holds is restored: that status is shown until a sample of this
     *                 process arrives, and the window is then computed over both
     */
    BurstObserver(
            BurstObserverSettings settings,
            ObserverContext context,
            RandomGenerator random,
            Map<String, List<RttRing.Sample>> restored) {
        this.ping = settings.pingConfig();
        this.destination = ping.destinationUri();
        this.connectivity = ping.connectivityUri();
        this.check = settings.windowRule().check();
        this.windows = new BurstWindows(settings.windowRule());
        this.selector = new SubjectSelector(settings.subjectSelector());
        this.context = context;
        this.scheduler = context.writer();
        this.random = random;
        this.publisher = StatusPublisher.ofSnapshots(scheduler, context.statuses(), this::snapshot, () -> stopped);
        restored.forEach((tag, samples) -> {
            OutboundStatus status = context.statuses().held(tag);
            if (status == null || status.restoredFrom() == null || samples.isEmpty()) {
                return;
            }
            RttRing ring = ring(tag);
            samples.forEach(sample -> {
                if (sample.success()) {
                    ring.putSuccess(sample.rttNanos(), sample.recordedAtNanos());
                } else {
                    ring.putFailure(sample.recordedAtNanos());
                }
            });
            restoredOnly.add(tag);
        });
    }

    @Override
    public void start() {
        if (selector.isEmpty()) {
            log.info("burst observer not started: observatory.burst.subject-selector is empty");
            // Selects nothing: a predecessor's statuses go now, not frozen until the outbounds next change.
            scheduler.execute(this::outboundsChanged);
            return;
        }
        log.info(
                "burst observer started: selector {}, destination {} (unless an outbound sets its own probe URL), {}"
                        + " samples per {} cycle, method {}",
                selector,
                Redaction.redact(destination),
                ping.sampling(),
                GoDuration.format(ping.cycle()),
                ping.httpMethod());
        scheduler.execute(() -> {
            select().forEach(this::probe);
            cleanup();
            cycle();
        });
    }

    @Override
    public void outboundsChanged() {
        if (stopped) {
            return;
        }
        Set<String> before = selectedTags;
        select().stream().filter(outbound -> !before.contains(outbound.tag())).forEach(this::probe);
        cleanup();
    }

    @Override
    public void stop() {
        stopped = true;
        stopSignal.tryEmitEmpty();
        scheduler.execute(() -> {
            nextCycle.cancel();
            expiryRefresh.cancel();
            pendingProbes.forEach(Scheduler.Cancellable::cancel);
        });
    }

    private void cycle() {
        if (stopped) {
            return;
        }
        pendingProbes.forEach(Scheduler.Cancellable::cancel);
        List<Outbound> selected = select();
        cleanup();
        long cycleNanos = ping.cycle().toNanos();
        List<Scheduler.Cancellable> scheduled = new ArrayList<>(selected.size() * ping.sampling());
        for (Outbound outbound : selected) {
            for (int i = 0; i < ping.sampling(); i++) {
                Duration offset = Duration.ofNanos(random.nextLong(cycleNanos));
                scheduled.add(scheduler.schedule(offset, () -> probe(outbound)));
            }
        }
        pendingProbes = scheduled;
        nextCycle = scheduler.schedule(ping.cycle(), this::cycle);
    }

    private List<Outbound> select() {
        List<Outbound> selected = selector.select(context.outbounds().get());
        selectedTags = selected.stream().map(Outbound::tag).collect(Collectors.toSet());
        return selected;
    }

    private void cleanup() {
        lastFailureReasons.keySet().retainAll(selectedTags);
        restoredOnly.retainAll(selectedTags);
        windows.retain(selectedTags);
        boolean heldDropped = !selectedTags.containsAll(publisher.currentTags());
        if (rings.keySet().retainAll(selectedTags) || heldDropped) {
            publisher.changed();
        }
    }

    private void probe(Outbound outbound) {
        if (stopped) {
            return;
        }
        send(outbound, outbound.probeUrlOr(destination), ProbeRequest.Client.BURST_PING)
                .subscribe(result -> scheduler.execute(() -> onResult(result)));
    }

    private void onResult(ProbeResult raw) {
        if (stopped || !selectedTags.contains(raw.outboundTag())) {
            return;
        }
        context.recorder().record(raw);
        ProbeResult result = OutboundStatus.judged(raw, check);
        log.debug(
                "probe {}: success={} rtt={}ns status={} phases={}",
                result.outboundTag(),
                result.success(),
                result.rttNanos(),
                result.httpStatus(),
                result.phases());
        if (result.success()) {
            lastFailureReasons.remove(result.outboundTag());
            ring(result.outboundTag()).putSuccess(result.rttNanos(), scheduler.nanoTime());
            sampleRecorded(result.outboundTag());
            return;
        }
        ProbeError error = Objects.requireNonNull(result.error(), "a failed probe has an error");
        log.debug("probe {} failed: {}", result.outboundTag(), error.reason());
        lastFailureReasons.put(result.outboundTag(), error.reason());
        if (connectivity == null || error.kind() == ProbeError.Kind.UNEXPECTED_STATUS) {
            recordFailure(result.outboundTag());
            return;
        }
        send(CONNECTIVITY, connectivity, ProbeRequest.Client.CONNECTIVITY_CHECK)
                .subscribe(answer -> scheduler.execute(() -> afterConnectivityCheck(result, answer)));
    }

    private void afterConnectivityCheck(ProbeResult failed, ProbeResult answer) {
        if (stopped || !selectedTags.contains(failed.outboundTag())) {
            return;
        }
        if (answer.success()) {
            if (networkDown) {
                networkDown = false;
                log.info(
                        "network is up again: connectivity check {} answers; recording failed samples again",
                        Redaction.redact(String.valueOf(connectivity)));
            }
            recordFailure(failed.outboundTag());
            return;
        }
        if (!networkDown) {
            networkDown = true;
            log.warn(
                    "network is down: connectivity check {} failed too ({}); discarding failed samples until it"
                            + " answers again",
                    Redaction.redact(String.valueOf(connectivity)),
                    answer.error() == null ? "no error" : answer.error().reason());
        }
    }

    private void recordFailure(String tag) {
        ring(tag).putFailure(scheduler.nanoTime());
        sampleRecorded(tag);
    }

    private void sampleRecorded(String tag) {
        restoredOnly.remove(tag);
        windows.sampleRecorded(tag);
        publisher.changed();
    }

    private RttRing ring(String tag) {
        return rings.computeIfAbsent(tag, t -> new RttRing(ping.sampling(), ping.validity()));
    }

    /** Probes {@code url} through {@code outbound} with the configured method, as Xray's {@code client} does. */
    private Mono<ProbeResult> send(Outbound outbound, URI url, ProbeRequest.Client client) {
        ProbeRequest request = new ProbeRequest(outbound, url, ping.httpMethod(), ping.timeout(), client);
        return context.prober().probe(request).takeUntilOther(stopSignal.asMono());
    }

    @Override
    public Map<String, List<RttRing.Sample>> samples() {
        long now = scheduler.nanoTime();
        Map<String, List<RttRing.Sample>> samples = new HashMap<>(rings.size() * 4 / 3 + 1);
        rings.forEach((tag, ring) -> samples.put(tag, ring.samples(now)));
        return samples;
    }

    private List<OutboundStatus> snapshot() {
        long now = scheduler.nanoTime();
        List<OutboundStatus> statuses = new ArrayList<>(selectedTags.size());
        long nextExpiry = Long.MAX_VALUE;
        for (Map.Entry<String, RttRing> entry : rings.entrySet()) {
            String tag = entry.getKey();
            // The sink's status: a restored one while only restored samples are in the ring, else the one the first
            // judgement of this observer's window starts from (a predecessor's), or this observer's last.
            OutboundStatus held = context.statuses().held(tag);
            if (restoredOnly.contains(tag) && held != null) {
                statuses.add(held);
            } else {
                statuses.add(windows.status(
                        tag,
                        entry.getValue().stats(now),
                        held == null ? null : held.active(),
                        lastFailureReasons.get(tag)));
            }
            nextExpiry =
                    Math.min(nextExpiry, entry.getValue().nextExpiryNanos(now).orElse(Long.MAX_VALUE));
        }
        expiryRefresh.cancel();
        if (nextExpiry != Long.MAX_VALUE && !stopped) {
            expiryRefresh = scheduler.schedule(Duration.ofNanos(nextExpiry - now), publisher::publishNow);
        }
        // A selected outbound without a sample of this observer yet keeps the status the sink holds (a predecessor's).
        for (String tag : selectedTags) {
            OutboundStatus held =
                    rings.containsKey(tag) ? null : context.statuses().held(tag);
            if (held != null) {
                statuses.add(held);
            }
        }
        return statuses;
    }
}
