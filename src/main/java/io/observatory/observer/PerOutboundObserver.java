package io.observatory.observer;

import com.google.common.math.LongMath;
import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.config.SubjectSelector;
import io.observatory.health.ActiveHealth;
import io.observatory.health.ProbeIntervals;
import io.observatory.probe.ProbeResult;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import io.observatory.time.DueQueue;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standard observer with {@code schedule: per-outbound}: every selected outbound has its own probe session
 * (Envoy's and HAProxy's model) with its own next-probe time, so a slow or black-holed outbound never delays another.
 * A session's next probe is due {@link ProbeIntervals#after} its last probe's answer (the wait depends on its health:
 * faster while a transition is pending, slower while unhealthy), lengthened by the interval jitter; its first probe
 * is due after a random share of the initial jitter. At most one probe per session is in flight.
 *
 * <p>The answer is placed on the wire: the probe's start plus its RTT, the sum of its network spans (for a failed
 * probe, the time until the prober noticed the failure), but never more than {@link #CLIENT_WORK_NANOS} before the
 * result reached the writer. HAProxy and Envoy re-arm a check's timer as they handle its answer, microseconds after
 * it arrived; counted from when the result reached the writer, the client's own work around the exchange (setting
 * up the connection, completing the probe, recording its result: 0.2 ms on a warm JVM, about 2 ms on a cold one)
 * would stretch every interval, and a pending transition's edge intervals with it. The bound keeps a probe that
 * waited for a slot of {@code observatory.probe.max-concurrent} (time that is neither network nor its own work)
 * from being due again at once: it waits its interval from its result, less at most the bound.
 *
 * <p>The sessions share one due-time queue ({@link DueQueue}) and one writer timer armed for the earliest: no task
 * per outbound. A session leaves the queue when its probe starts and returns when the probe completes; a deselected
 * session leaves it at once and is marked ended, so a result of its probe still in flight is not recorded, even if
 * the tag is selected again meanwhile (the new session starts unknown). Costs one session and at most one queue entry
 * per selected outbound; a probe costs O(log n) queue work. All state is confined to the writer.
 */
final class PerOutboundObserver implements Observer {

    private static final Logger log = LoggerFactory.getLogger(PerOutboundObserver.class);

    /**
     * Sessions due within this much after the timer fires start with it (at most that early), so that 10,000
     * sessions spread over an interval arm about one timer per millisecond rather than one per distinct due time.
     */
    static final long COALESCE_NANOS = 1_000_000;

    /**
     * The most of the time between a probe's start and its result reaching the writer that is taken for the client's
     * own work and not counted in the wait for the next probe.
     */
    static final long CLIENT_WORK_NANOS = 5_000_000;

    private static final long NOT_ARMED = Long.MAX_VALUE;

    private final String name;
    private final StandardObserverSettings settings;
    private final ProbeIntervals intervals;
    private final SubjectSelector selector;
    private final ObserverContext context;
    private final Scheduler writer;
    private final RandomGenerator random;
    private final StandardProbes probes;
    private final Map<String, Session> sessions = new HashMap<>();
    // The sessions waiting for their next probe, by tag.
    private final DueQueue<String> due = new DueQueue<>();
    private Scheduler.Cancellable timer = () -> {};
    // When the armed timer fires; NOT_ARMED when none is.
    private long timerDueNanos = NOT_ARMED;

    /**
     * Starts from the statuses its sink holds (a predecessor's, after a configuration reload); those of outbounds this
     * observer does not select are dropped at its start.
     *
     * @param name     names the observer in log lines: {@code standard observer}, or a capability's sessions
     * @param settings validated observer settings with {@code schedule: per-outbound}
     * @param context  the writer, the prober, the outbounds and where results go
     * @param clock    wall clock for the Xray timestamps
     * @param random   source of the jitters
     */
    PerOutboundObserver(
            String name,
            StandardObserverSettings settings,
            ObserverContext context,
            Clock clock,
            RandomGenerator random) {
        this.name = name;
        this.settings = settings;
        this.intervals = settings.intervals();
        this.selector = new SubjectSelector(settings.subjectSelector());
        this.context = context;
        this.writer = context.writer();
        this.random = random;
        this.probes = new StandardProbes(settings, context, clock);
    }

    @Override
    public void start() {
        if (selector.isEmpty()) {
            log.info("{} not started: observatory.standard.subject-selector is empty", name);
            // Selects nothing: a predecessor's statuses go now, not frozen until the outbounds next change.
            writer.execute(this::outboundsChanged);
            return;
        }
        log.info(
                "{} started: selector {}, probe URL {} (unless an outbound sets its own), one session"
                        + " per outbound: interval {}, unhealthy {}, unhealthy edge {}, healthy edge {}, initial jitter {},"
                        + " interval jitter {}, timeout {}",
                name,
                selector,
                Redaction.redact(settings.probeUrl()),
                GoDuration.format(intervals.healthy()),
                GoDuration.format(intervals.unhealthy()),
                GoDuration.format(intervals.unhealthyEdge()),
                GoDuration.format(intervals.healthyEdge()),
                GoDuration.format(intervals.initialJitter()),
                GoDuration.format(intervals.intervalJitter()),
                GoDuration.format(settings.timeout()));
        writer.execute(this::outboundsChanged);
    }

    @Override
    public void stop() {
        probes.stop();
        writer.execute(() -> timer.cancel());
    }

    /**
     * Re-reads the selection, in tag order: a new outbound gets a session whose first probe is due after a random
     * share of the initial jitter; a deselected one's session ends (a probe in flight is ignored); an outbound whose
     * settings changed keeps its session and is probed with the new settings from its next probe on.
     */
    @Override
    public void outboundsChanged() {
        if (probes.stopped()) {
            return;
        }
        Map<String, Outbound> selected = selector.select(context.outbounds().get()).stream()
                .collect(Collectors.toMap(
                        Outbound::tag, outbound -> outbound, (first, second) -> second, LinkedHashMap::new));
        probes.select(selected.keySet());
        sessions.values().removeIf(session -> {
            session.ended = !selected.containsKey(session.outbound.tag());
            if (session.ended) {
                due.remove(session.outbound.tag());
            }
            return session.ended;
        });
        long now = writer.nanoTime();
        selected.values().forEach(outbound -> {
            Session session = sessions.get(outbound.tag());
            if (session != null) {
                session.outbound = outbound;
            } else {
                Session added = new Session(outbound);
                sessions.put(outbound.tag(), added);
                enqueue(added, LongMath.saturatedAdd(now, randomShare(intervals.initialJitter())));
            }
        });
        rearm();
    }

    private void fire() {
        timerDueNanos = NOT_ARMED;
        if (probes.stopped()) {
            return;
        }
        long horizon = writer.nanoTime() + COALESCE_NANOS;
        for (String tag : due.takeDue(horizon)) {
            Session session = sessions.get(tag);
            if (session != null) {
                session.startedNanos = writer.nanoTime();
                probes.probe(session.outbound, () -> !session.ended, status -> completed(session, status));
            }
        }
        rearm();
    }

    private void completed(Session session, @Nullable OutboundStatus status) {
        if (session.ended || status == null) {
            return;
        }
        ActiveHealth health = status.active();
        long wait = LongMath.saturatedAdd(intervals.after(health).toNanos(), randomShare(intervals.intervalJitter()));
        ProbeResult probe = Objects.requireNonNull(status.lastProbe(), "a recorded probe's result");
        long onTheWire = LongMath.saturatedAdd(session.startedNanos, probe.rttNanos());
        long answeredNanos = Math.max(onTheWire, writer.nanoTime() - CLIENT_WORK_NANOS);
        enqueue(session, LongMath.saturatedAdd(answeredNanos, wait));
        rearm();
    }

    /**
     * @param dueNanos when the session's next probe is due, ticker nanoseconds; {@link Long#MAX_VALUE} (never) for
     *                 a wait beyond the ticker's range (an interval near Go's largest duration)
     */
    private void enqueue(Session session, long dueNanos) {
        due.set(session.outbound.tag(), dueNanos);
    }

    /** Keeps the one timer armed for the earliest due session that has not ended, if any. */
    private void rearm() {
        long earliest = due.earliest();
        if (earliest == Long.MAX_VALUE) {
            timer.cancel();
            timerDueNanos = NOT_ARMED;
            return;
        }
        if (timerDueNanos <= earliest) {
            return;
        }
        timer.cancel();
        timerDueNanos = earliest;
        long delay = LongMath.saturatedSubtract(earliest, writer.nanoTime());
        timer = writer.schedule(Duration.ofNanos(Math.max(0, delay)), this::fire);
    }

    /** A uniformly random time in [0, {@code bound}) in nanoseconds; 0 for a zero bound. */
    private long randomShare(Duration bound) {
        return bound.isZero() ? 0 : random.nextLong(bound.toNanos());
    }

    /**
     * One outbound's probe session: the outbound as last configured, when its probe in flight (or its last one)
     * started, in ticker nanoseconds, and whether it ended (deselected).
     */
    private static final class Session {
        Outbound outbound;
        long startedNanos;
        boolean ended;

        Session(Outbound outbound) {
            this.outbound = outbound;
        }
    }
}
