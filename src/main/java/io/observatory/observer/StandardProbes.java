package io.observatory.observer;

import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.text.TagList;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Sinks;

/**
 * What the standard observer does whatever its schedule: sends one probe with the observer's URL (unless the outbound
 * sets its own) and deadline, keeps one status per selected outbound by Xray's rule or the active check's
 * thresholds, drops the statuses of outbounds no longer selected, and publishes each change coalesced (O(changes) per
 * publication). Holds no status itself: an outbound's previous status is the one it handed on (the sink's), or the
 * one marked and not yet handed on. Writer only, but for {@link #stop()}.
 */
final class StandardProbes {

    private static final Logger log = LoggerFactory.getLogger(StandardProbes.class);

    private final StandardObserverSettings settings;
    private final URI probeUrl;
    private final ObserverContext context;
    private final Clock clock;
    private final StatusPublisher publisher;
    private final Sinks.Empty<Void> stopSignal = Sinks.empty();
    private Set<String> selected = Set.of();
    // volatile: set by the thread stopping the service, read on the writer thread.
    private volatile boolean stopped;

    /**
     * Starts from the statuses the sink holds (a predecessor's, after a configuration reload, or restored ones); those
     * of outbounds not selected are dropped at the first {@link #select}.
     */
    StandardProbes(StandardObserverSettings settings, ObserverContext context, Clock clock) {
        this.settings = settings;
        this.probeUrl = settings.probeUri();
        this.context = context;
        this.clock = clock;
        this.publisher = StatusPublisher.ofChanges(context.writer(), context.statuses(), () -> stopped);
    }

    /**
     * Sends one probe of {@code outbound}; once it completes, on the writer, records its result if the outbound is
     * still selected and {@code current} still holds, and then runs {@code then} with the outbound's new status (null
     * when the result was not recorded). Nothing runs once the observer has stopped: the probe is cancelled.
     *
     * @param current whether the result still belongs to the outbound's status, asked on the writer when it arrives
     *                (false for a probe whose session ended, even if the tag was selected again meanwhile)
     */
    void probe(Outbound outbound, BooleanSupplier current, Consumer<@Nullable OutboundStatus> then) {
        ProbeRequest request = new ProbeRequest(
                outbound,
                outbound.probeUrlOr(probeUrl),
                "GET",
                settings.timeout(),
                settings.connectTimeout(),
                ProbeRequest.Client.STANDARD_OBSERVER);
        context.prober()
                .probe(request)
                .takeUntilOther(stopSignal.asMono())
                .subscribe(result -> context.writer().execute(() -> {
                    if (!stopped) {
                        boolean recorded = selected.contains(result.outboundTag()) && current.getAsBoolean();
                        then.accept(recorded ? record(result) : null);
                    }
                }));
    }

    private OutboundStatus record(ProbeResult result) {
        context.recorder().record(result);
        OutboundStatus previous = publisher.current(result.outboundTag());
        OutboundStatus next = OutboundStatus.afterProbe(previous, result, clock.instant(), settings.activeCheck());
        ProbeResult probe = Objects.requireNonNull(next.lastProbe(), "a status after a probe");
        log.debug(
                "probe {}: success={} rtt={}ns status={} phases={} reason={}",
                next.tag(),
                probe.success(),
                probe.rttNanos(),
                probe.httpStatus(),
                probe.phases(),
                next.lastErrorReason());
        publisher.put(next);
        return next;
    }

    /**
     * Takes the selected outbounds' tags and drops, with one publication, the statuses of all others: O(outbounds
     * with a status).
     */
    void select(Set<String> tags) {
        selected = Set.copyOf(tags);
        List<String> gone = publisher.currentTags().stream()
                .filter(tag -> !selected.contains(tag))
                .sorted()
                .toList();
        if (!gone.isEmpty()) {
            gone.forEach(publisher::remove);
            log.info("no longer observed (removed or deselected): {} outbounds {}", gone.size(), TagList.of(gone));
        }
    }

    /** Whether {@link #stop()} was called. */
    boolean stopped() {
        return stopped;
    }

    /** Cancels every probe in flight and publishes nothing more. Any thread. */
    void stop() {
        stopped = true;
        stopSignal.tryEmitEmpty();
    }
}
