package io.observatory.mesh.witness;

import io.observatory.config.Outbound;
import io.observatory.config.StandardObserverSettings;
import io.observatory.health.ExpectedStatus;
import io.observatory.mesh.protocol.HubLink;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.mesh.protocol.WitnessFleet;
import io.observatory.mesh.protocol.WitnessFleet.Target;
import io.observatory.mesh.protocol.WitnessReport;
import io.observatory.observer.Observer;
import io.observatory.observer.ProbeSessions;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeResult;
import io.observatory.probe.Prober;
import io.observatory.probe.XrayOutbounds;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.text.GoDuration;
import io.observatory.text.TagList;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A witness's probing and its reports. On the writer it keeps the fleet it was given and probes every entry point of
 * every server but its own with the observers' per-outbound sessions ({@link ProbeSessions}): each entry point
 * {@code probe-interval} after its previous answer, at most one probe in flight, through the entry point's own
 * protocol to its probe URL, on the shared prober; each session's status holds the failure streak and the last probe.
 * On its own thread ({@code reports}) it runs a round every report interval: fetch the fleet (the previous one stays
 * when no hub answers), run the self-checks, and send the whole state to every hub with the next sequence number;
 * nothing waits for another thread. Costs per entry point one session and one status.
 */
public final class MeshWitness {

    private static final Logger log = LoggerFactory.getLogger(MeshWitness.class);

    private final String name;
    private final Scheduler writer;
    private final Scheduler reports;
    private final Prober prober;
    private final Clock clock;
    private final HubLink hubs;
    private final SelfChecks selfChecks;
    private final @Nullable HostMetrics metrics;
    private final Instant processStart;
    private final Duration defaultReportInterval;
    // volatile: set by stop(), read on the writer and on the witness thread.
    private volatile boolean stopped;
    // Witness-thread state.
    private long sequence;
    // Writer state below.
    private @Nullable WitnessFleet fleet;
    private final WitnessStatuses statuses = new WitnessStatuses();
    private @Nullable Observer sessions;
    private final @Nullable XrayOutbounds core;
    // The witness's thread: the Xray objects last handed to the core and what it carries of them.
    private Map<String, String> objects = Map.of();
    private Map<String, Outbound> carried = Map.of();

    /**
     * @param name                  this witness's name ({@code observatory.mesh.witness.name})
     * @param selfChecks            the checks of its own server
     * @param metrics               reads its own server for each report; {@code null} to send none
     * @param writer                where the sessions run and the statuses are kept
     * @param reports               the witness's own thread: fleet fetches, self-checks and reports may block on it
     * @param prober                sends every probe
     * @param clock                 wall clock of the process start and the statuses
     * @param hubs                  where the fleet comes from and reports go
     * @param defaultReportInterval the report interval until a hub says otherwise
     * @param core                  carries the entry points given as Xray outbounds; {@code null} leaves them out
     */
    MeshWitness(
            String name,
            SelfChecks selfChecks,
            @Nullable HostMetrics metrics,
            Scheduler writer,
            Scheduler reports,
            Prober prober,
            Clock clock,
            HubLink hubs,
            Duration defaultReportInterval,
            @Nullable XrayOutbounds core) {
        this.name = name;
        this.core = core;
        this.selfChecks = selfChecks;
        this.metrics = metrics;
        this.writer = writer;
        this.reports = reports;
        this.prober = prober;
        this.clock = clock;
        this.hubs = hubs;
        this.processStart = clock.instant();
        this.defaultReportInterval = defaultReportInterval;
    }

    /** Runs the first round now. */
    public void start() {
        reports.execute(this::round);
    }

    /** Stops reporting and probing; probes in flight are cancelled and the link to the hubs is closed. */
    public void stop() {
        stopped = true;
        reports.execute(hubs::close);

        HostMetrics reading = metrics;
        if (reading != null) {
            reports.execute(reading::close);
        }
        writer.execute(() -> {
            if (sessions != null) {
                sessions.stop();
                sessions = null;
            }
        });
    }

    /**
     * One report round. On the witness's thread: fetch the fleet and run the self-checks, which may block; then on the
     * writer: follow the fleet and take the streaks; then back on the witness's thread: send, and schedule the next
     * round after the report interval the hub set.
     */
    private void round() {
        if (stopped) {
            return;
        }
        long startedNanos = reports.nanoTime();
        Optional<WitnessFleet> fetched;
        List<WitnessReport.SelfCheckResult> checks;
        ServerMetrics reading;
        try {
            fetched = hubs.fetchFleet().map(this::carried);
            checks = selfChecks.run();
            reading = metrics == null ? ServerMetrics.NONE : metrics.read(reports.nanoTime());
        } catch (RuntimeException e) {
            // A round must never end the rounds: the next one tries again with whatever the hub then sends.
            log.error(
                    "mesh witness {}: report round failed; the next one follows in {}",
                    name,
                    GoDuration.format(defaultReportInterval),
                    e);
            reports.schedule(defaultReportInterval, this::round);
            return;
        }
        writer.execute(() -> {
            fetched.ifPresent(this::fleetFetched);
            List<PathStreak> streaks = streaks();
            Duration interval = fleet == null ? defaultReportInterval : fleet.reportInterval();
            reports.execute(() -> send(checks, reading, streaks, interval, startedNanos));
        });
    }

    /**
     * The fleet with each entry point given as an Xray outbound reached through the witness's proxy core, as a client
     * of it would be; those no core carries are left out, with one line each time the set changes. The core is asked
     * only when the objects changed. Witness thread.
     */
    private WitnessFleet carried(WitnessFleet fetched) {
        Map<String, String> next = new LinkedHashMap<>();
        fetched.targets().forEach((tag, target) -> {
            if (target.xrayOutbound() != null) {
                next.put(tag, target.xrayOutbound());
            }
        });
        if (next.isEmpty() && objects.isEmpty()) {
            return fetched;
        }
        if (!next.equals(objects)) {
            XrayOutbounds carrier = core;
            carried = carrier == null ? Map.of() : carrier.carry(next);
            objects = next;
            List<String> left = next.keySet().stream()
                    .filter(tag -> !carried.containsKey(tag))
                    .toList();
            if (!left.isEmpty()) {
                log.warn(
                        "mesh witness {}: {} entry points given as Xray outbounds are not probed: {} ({})",
                        name,
                        left.size(),
                        TagList.of(left),
                        carrier == null
                                ? "this witness has no proxy core: set observatory.core.binary"
                                : "the core refuses them or cannot run; see its lines");
            }
        }
        Map<String, Target> targets = new LinkedHashMap<>();
        fetched.targets().forEach((tag, target) -> {
            Outbound via = carried.get(tag);
            if (target.xrayOutbound() == null) {
                targets.put(tag, target);
            } else if (via != null) {
                targets.put(tag, target.through(via));
            }
        });
        return new WitnessFleet(
                targets, fetched.probeUrl(), fetched.probeInterval(), fetched.timeout(), fetched.reportInterval());
    }

    /** Sends, then schedules the next round one interval after this one started (a slow hub does not stretch it). */
    private void send(
            List<WitnessReport.SelfCheckResult> checks,
            ServerMetrics reading,
            List<PathStreak> streaks,
            Duration interval,
            long startedNanos) {
        if (stopped) {
            return;
        }
        hubs.send(new WitnessReport(name, processStart, ++sequence, checks, streaks, reading));
        Duration elapsed = Duration.ofNanos(reports.nanoTime() - startedNanos);
        reports.schedule(elapsed.compareTo(interval) >= 0 ? Duration.ZERO : interval.minus(elapsed), this::round);
    }

    /**
     * On the writer: follows the fleet a hub sent. Entry points that left lose their sessions and streaks; new ones
     * get sessions; other probe settings replace the sessions, which keep every streak.
     */
    private void fleetFetched(WitnessFleet next) {
        if (stopped) {
            return;
        }
        WitnessFleet previous = fleet;
        fleet = next;
        Observer current = sessions;
        if (current != null
                && previous != null
                && previous.probeUrl().equals(next.probeUrl())
                && previous.probeInterval().equals(next.probeInterval())
                && previous.timeout().equals(next.timeout())) {
            current.outboundsChanged();
            return;
        }
        if (current != null) {
            current.stop();
        }
        Observer replacement = ProbeSessions.perOutbound(
                "mesh witness " + name + "'s probes",
                sessionSettings(next),
                writer,
                prober,
                this::outbounds,
                statuses,
                clock,
                // The sessions have no jitter, so they draw nothing from it.
                RandomGenerator.getDefault());
        sessions = replacement;
        replacement.start();
    }

    /** The entry points of the fleet in force, as outbounds; writer only. */
    private List<Outbound> outbounds() {
        WitnessFleet current = fleet;
        return current == null
                ? List.of()
                : current.targets().values().stream().map(Target::outbound).toList();
    }

    /** Every entry point probed at least once: its streaks and last probe, in fleet order; writer only. */
    private List<PathStreak> streaks() {
        WitnessFleet current = fleet;
        if (current == null) {
            return List.of();
        }
        List<PathStreak> streaks = new ArrayList<>(current.targets().size());
        current.targets().forEach((tag, target) -> {
            OutboundStatus status = statuses.held(tag);
            ProbeResult last = status == null ? null : status.lastProbe();
            if (status != null && last != null) {
                streaks.add(streak(
                        target,
                        status.active().consecutiveFailures(),
                        status.active().consecutiveSuccesses(),
                        last));
            }
        });
        return streaks;
    }

    private static PathStreak streak(Target target, int failures, int successes, ProbeResult result) {
        ProbeError error = result.error();
        return new PathStreak(
                target.server(),
                target.entryPoint(),
                failures,
                successes,
                new LastProbe(
                        result.success(),
                        error == null ? null : error.kind(),
                        error == null ? "" : error.reason(),
                        result.success() ? result.rttNanos() : 0));
    }

    /**
     * The sessions' settings from the fleet's: one interval whatever the health (a witness reports streaks, not
     * states), the first probes at once, any HTTP answer a success (as Xray's observers take it).
     */
    private static StandardObserverSettings sessionSettings(WitnessFleet fleet) {
        return new StandardObserverSettings(
                List.of(""),
                fleet.probeUrl().toString(),
                fleet.probeInterval(),
                false,
                ExpectedStatus.ANY,
                1,
                1,
                StandardObserverSettings.Schedule.PER_OUTBOUND,
                fleet.timeout(),
                null,
                Duration.ZERO,
                Duration.ZERO,
                fleet.probeInterval(),
                fleet.probeInterval(),
                fleet.probeInterval());
    }
}
