package io.observatory.mesh.witness;

import io.observatory.mesh.MeshLedger;
import io.observatory.mesh.witness.WitnessFleet.Target;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbeRequest;
import io.observatory.probe.ProbeResult;
import io.observatory.probe.Prober;
import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/**
 * A witness's probing and its reports. On the writer it keeps the fleet it was given and, per entry point it probes
 * (every entry point of every server but its own), the failure streak and the last probe; every
 * {@code probe-interval} it probes each one that is not still in flight, through the entry point's own protocol to
 * its probe URL, on the shared prober. On its own thread ({@code reports}) it runs a round every report interval:
 * fetch the fleet (the previous one stays when no hub answers), run the self-checks, and send the whole state to
 * every hub with the next sequence number; nothing waits for another thread. Costs per entry point one streak and one
 * outbound.
 */
public final class MeshWitness {

    private static final Logger log = LoggerFactory.getLogger(MeshWitness.class);

    private final String name;
    private final Scheduler writer;
    private final Scheduler reports;
    private final Prober prober;
    private final HubLink hubs;
    private final SelfChecks selfChecks;
    private final Instant processStart;
    private final Duration defaultReportInterval;
    // volatile: set by stop(), read on the writer and on the witness thread.
    private volatile boolean stopped;
    // Witness-thread state.
    private long sequence;
    // Writer state below.
    private @Nullable WitnessFleet fleet;
    private final Map<String, Path> paths = new LinkedHashMap<>();
    private Scheduler.@Nullable Cancellable probeTick;
    private final Set<Disposable> inFlight = new HashSet<>();

    /**
     * @param name                  this witness's name ({@code observatory.mesh.witness.name})
     * @param selfChecks            the checks of its own server
     * @param writer                where streaks are kept and probes scheduled
     * @param reports               the witness's own thread: fleet fetches, self-checks and reports may block on it
     * @param prober                sends every probe
     * @param clock                 wall clock of the process start
     * @param hubs                  where the fleet comes from and reports go
     * @param defaultReportInterval the report interval until a hub says otherwise
     */
    MeshWitness(
            String name,
            SelfChecks selfChecks,
            Scheduler writer,
            Scheduler reports,
            Prober prober,
            Clock clock,
            HubLink hubs,
            Duration defaultReportInterval) {
        this.name = name;
        this.selfChecks = selfChecks;
        this.writer = writer;
        this.reports = reports;
        this.prober = prober;
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
        writer.execute(() -> {
            if (probeTick != null) {
                probeTick.cancel();
                probeTick = null;
            }
            inFlight.forEach(Disposable::dispose);
            inFlight.clear();
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
        try {
            fetched = hubs.fetchFleet();
            checks = selfChecks.run();
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
            List<MeshLedger.PathStreak> streaks = paths.values().stream()
                    .filter(path -> path.last != null)
                    .map(Path::report)
                    .toList();
            Duration interval = fleet == null ? defaultReportInterval : fleet.reportInterval();
            reports.execute(() -> send(checks, streaks, interval, startedNanos));
        });
    }

    /** Sends, then schedules the next round one interval after this one started (a slow hub does not stretch it). */
    private void send(
            List<WitnessReport.SelfCheckResult> checks,
            List<MeshLedger.PathStreak> streaks,
            Duration interval,
            long startedNanos) {
        if (stopped) {
            return;
        }
        hubs.send(new WitnessReport(name, processStart, ++sequence, checks, streaks));
        Duration elapsed = Duration.ofNanos(reports.nanoTime() - startedNanos);
        reports.schedule(elapsed.compareTo(interval) >= 0 ? Duration.ZERO : interval.minus(elapsed), this::round);
    }

    /** On the writer: follows the fleet a hub sent; streaks of entry points that left are dropped. */
    private void fleetFetched(WitnessFleet next) {
        if (stopped) {
            return;
        }
        boolean intervalChanged = fleet == null || !fleet.probeInterval().equals(next.probeInterval());
        fleet = next;
        paths.keySet().retainAll(next.targets().keySet());
        next.targets()
                .forEach((tag, target) ->
                        paths.computeIfAbsent(tag, unused -> new Path(target)).retarget(target));
        if (intervalChanged) {
            if (probeTick != null) {
                probeTick.cancel();
            }
            probeRound();
        }
    }

    /** On the writer: probes every entry point whose previous probe finished, then schedules the next round. */
    private void probeRound() {
        WitnessFleet current = fleet;
        if (stopped || current == null) {
            return;
        }
        for (Path path : paths.values()) {
            if (path.probing) {
                continue;
            }
            path.probing = true;
            Target target = path.target;
            Disposable[] subscription = new Disposable[1];
            subscription[0] = prober.probe(new ProbeRequest(
                            target.outbound(),
                            target.url(),
                            "GET",
                            current.timeout(),
                            ProbeRequest.Client.STANDARD_OBSERVER))
                    .subscribe(result -> writer.execute(() -> {
                        inFlight.remove(subscription[0]);
                        Path now = paths.get(target.outbound().tag());
                        if (now != null) {
                            now.probed(result);
                        }
                    }));
            inFlight.add(subscription[0]);
        }
        probeTick = writer.schedule(current.probeInterval(), this::probeRound);
    }

    /** One entry point's streak and last probe; writer only. */
    private static final class Path {

        private Target target;
        private int failures;
        private boolean probing;
        private @Nullable ProbeResult last;

        Path(Target target) {
            this.target = target;
        }

        void retarget(Target next) {
            target = next;
        }

        void probed(ProbeResult result) {
            probing = false;
            failures = result.success() ? 0 : failures + 1;
            last = result;
        }

        MeshLedger.PathStreak report() {
            ProbeResult result = Objects.requireNonNull(last, "probed");
            ProbeError error = result.error();
            return new MeshLedger.PathStreak(
                    target.server(),
                    target.entryPoint(),
                    failures,
                    new MeshLedger.LastProbe(
                            result.success(),
                            error == null ? null : error.kind(),
                            error == null ? "" : error.reason(),
                            result.success() ? result.rttNanos() : 0));
        }
    }
}
