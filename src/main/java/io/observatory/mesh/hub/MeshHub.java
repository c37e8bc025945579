package io.observatory.mesh.hub;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshLedger.Outcome;
import io.observatory.mesh.hub.MeshLedger.Report;
import io.observatory.mesh.judge.IncrementalMeshJudge;
import io.observatory.mesh.judge.MeshEvidence;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudge;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.judge.WitnessAssignment;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub (mesh role {@code hub} or {@code hub-and-witness}): takes the witnesses' reports into the
 * {@link MeshLedger}, judges the fleet after every accepted report and every {@link #JUDGE_INTERVAL} (so NO_DATA
 * comes and goes with time alone), and publishes the {@link MeshView} with each entry point's state as the snapshot's
 * {@link MeshView#PART}, in one publication. The judgement is {@link MeshJudge}'s, kept by an
 * {@link IncrementalMeshJudge} that judges again only what a report or the passing time touched; every verdict still
 * follows from the latest data alone, so each heals by itself, and every replica of a hub given the same reports
 * computes the same view. Writer-confined but for {@link #settings()}, which any thread reads.
 *
 * <p>Cost per report of a witness probing n entry points: O(n) to judge it, O(servers + witnesses) to build and
 * publish the view when anything changed, and at most once a second one pass over the matrix for the entry points'
 * RTTs ({@link MeshMarks}); reports arriving while a judgement is queued share it. A fleet change judges everything
 * again: O(paths).
 */
public final class MeshHub implements Reconfigurable {

    private static final Logger log = LoggerFactory.getLogger(MeshHub.class);

    /** How often the fleet is judged again without a report: how late NO_DATA may appear or clear, at most. */
    public static final Duration JUDGE_INTERVAL = Duration.ofSeconds(1);

    private final Scheduler writer;
    private final Clock clock;
    private final ObservationUpdater updater;
    private final MeshTransitionLog transitions = new MeshTransitionLog();
    // volatile: replaced whole on the writer, read by gRPC threads for GetFleet: the settings and the assignment
    // computed from them, so that a reader never pairs new settings with the old assignment.
    private volatile InForce inForce;
    // Writer state below.
    private MeshFleet fleet;
    private MeshRules rules;
    private final MeshLedger ledger;
    private IncrementalMeshJudge judging;
    private final MeshMarks marks = new MeshMarks();
    // When the hub took each held report, on the wall clock: read once per report, so that a judgement of unchanged
    // evidence builds a view equal to the last one (derived again from the ticker at each judgement, the times moved
    // by the microseconds between two clock reads, and every tick published a new view).
    private final Map<String, Instant> receivedAt = new HashMap<>();
    private boolean judgementQueued;
    private boolean stopped;
    private Scheduler.@Nullable Cancellable tick;

    /**
     * @param initial the mesh settings at start-up
     * @param writer  the writer and its ticker: report receive times and no-data-after run on it
     * @param clock   wall clock for report times in the view
     * @param updater where each judgement's view is published, with the entry points' states, on the writer
     */
    public MeshHub(MeshSettings initial, Scheduler writer, Clock clock, ObservationUpdater updater) {
        this.writer = writer;
        this.clock = clock;
        this.updater = updater;
        this.fleet = initial.fleet();
        this.inForce = new InForce(initial, assignment(initial, fleet));
        this.rules = initial.rules();
        this.ledger = new MeshLedger(fleet, rules.noDataAfter());
        this.judging = new IncrementalMeshJudge(fleet, new MeshEvidence(List.of(), List.of()), rules);
    }

    /**
     * The mesh settings in force and which servers each witness probes under them.
     *
     * @param settings   the settings
     * @param assignment computed from them
     */
    public record InForce(MeshSettings settings, WitnessAssignment assignment) {}

    /** The settings in force with their assignment, read at once; any thread. */
    public InForce inForce() {
        return inForce;
    }

    /** Which servers each witness probes under {@code settings}' hub, {@code full} when it has none. */
    private static WitnessAssignment assignment(MeshSettings settings, MeshFleet fleet) {
        HubSettings hub = settings.hub();
        return hub == null ? WitnessAssignment.full(fleet) : hub.witnessAssignment(fleet);
    }

    /** The view in the current snapshot; any thread. */
    public MeshView view() {
        return updater.store().current().part(MeshView.PART);
    }

    /** The mesh settings in force; any thread. */
    public MeshSettings settings() {
        return inForce.settings();
    }

    /** Judges now and then every {@link #JUDGE_INTERVAL}, when this instance is a hub. */
    public void start() {
        writer.execute(() -> {
            if (settings().role().hub() && tick == null && !stopped) {
                log.info(
                        "mesh hub: {} servers ({} entry points), {} witnesses ({}); streak {}, quorum {}{}, unreliable"
                                + " share {}, no data after {}",
                        fleet.servers().size(),
                        fleet.servers().stream()
                                .mapToInt(server -> server.entryPoints().size())
                                .sum(),
                        fleet.witnesses().size(),
                        inForce.assignment().full()
                                ? "each probes every other server"
                                : "each server probed by "
                                        + inForce.assignment().perServer() + " of them and the checkers",
                        rules.streak(),
                        rules.quorum(),
                        rules.quorumSites() == 0 ? "" : " of " + rules.quorumSites() + " sites",
                        rules.unreliableShare(),
                        GoDuration.format(rules.noDataAfter()));
                judge();
                scheduleTick();
            }
        });
    }

    /** Stops judging for good: a reload afterwards changes the settings but schedules nothing. */
    public void stop() {
        writer.execute(() -> {
            stopped = true;
            stopTicking();
        });
    }

    /**
     * Takes a report from {@code witness}, as the caller's credential identified it. Any thread; {@code outcome}
     * hears what the ledger did, on the writer.
     */
    public void report(String witness, Report report, Consumer<Outcome> outcome) {
        writer.execute(() -> {
            Outcome recorded = settings().role().hub()
                    ? ledger.record(witness, report, writer.nanoTime())
                    : Outcome.REFUSED_UNKNOWN_WITNESS;
            if (recorded == Outcome.ACCEPTED) {
                receivedAt.put(witness, clock.instant());
                judgeLater(witness);
                if (!judgementQueued) {
                    judgementQueued = true;
                    writer.execute(this::judge);
                }
            }
            outcome.accept(recorded);
        });
    }

    /**
     * A report the hub holds, with when it was received on the wall clock: what the state file keeps of the mesh.
     *
     * @param witness    the witness that sent it
     * @param report     the report, with only the streaks that name entry points of the fleet
     * @param receivedAt when the hub received it (hub wall clock)
     */
    public record HeldReport(String witness, Report report, Instant receivedAt) {}

    /** Every report the hub holds, by witness name. Writer only. */
    public List<HeldReport> heldReports() {
        List<HeldReport> held = new ArrayList<>(receivedAt.size());
        ledger.reports()
                .forEach((witness, received) ->
                        held.add(new HeldReport(witness, received.report(), receivedAt(witness))));
        held.sort(Comparator.comparing(HeldReport::witness));
        return held;
    }

    /**
     * Takes the reports a previous process held (the state file), each as received at its own wall time, so their
     * age counts towards {@code no-data-after} as if this process had received them; the first judgement then
     * judges them. Before {@link #start()}; reports of witnesses not in the fleet are refused. Writer only.
     *
     * @return how many were taken
     */
    public int restore(List<HeldReport> reports) {
        Instant now = clock.instant();
        long nowNanos = writer.nanoTime();
        int taken = 0;
        for (HeldReport held : reports) {
            long ageNanos = Math.max(0, Duration.between(held.receivedAt(), now).toNanos());
            if (ledger.record(held.witness(), held.report(), nowNanos - ageNanos) == Outcome.ACCEPTED) {
                receivedAt.put(held.witness(), held.receivedAt());
                judgeLater(held.witness());
                taken++;
            }
        }
        return taken;
    }

    @Override
    public ReloadStage stage() {
        return ReloadStage.SOURCES;
    }

    /** Follows a new fleet, rules or role: reports of witnesses that left are forgotten, the rest are kept. */
    @Override
    public void reconfigure(ObservatoryConfig next) {
        MeshSettings mesh = next.section(MeshSettings.SECTION);
        if (mesh.equals(inForce.settings())) {
            return;
        }
        fleet = mesh.fleet();
        rules = mesh.rules();
        inForce = new InForce(mesh, assignment(mesh, fleet));
        ledger.fleetChanged(fleet, rules.noDataAfter());
        receivedAt.keySet().retainAll(ledger.reports().keySet());
        judging = new IncrementalMeshJudge(
                fleet, ledger.evidence().holding(view().judgement().votes()), rules);
        if (stopped) {
            return;
        }
        if (mesh.role().hub()) {
            if (tick == null) {
                scheduleTick();
            }
            judge();
        } else {
            stopTicking();
            updater.publish(MeshView.PART, MeshView.EMPTY, Map.of());
        }
    }

    private void scheduleTick() {
        tick = writer.schedule(JUDGE_INTERVAL, () -> {
            tick = null;
            if (settings().role().hub()) {
                judge();
                scheduleTick();
            }
        });
    }

    private void stopTicking() {
        if (tick != null) {
            tick.cancel();
            tick = null;
        }
    }

    /** Hands the incremental judge {@code witness}'s report as the ledger now holds it; writer only. */
    private void judgeLater(String witness) {
        MeshLedger.Received received =
                Objects.requireNonNull(ledger.reports().get(witness), "a report the ledger just took");
        judging.report(witness, MeshLedger.selfReport(witness, received), MeshLedger.streaks(witness, received));
    }

    /** When the hub took the report it holds of {@code witness}, which it has one of; writer only. */
    private Instant receivedAt(String witness) {
        return Objects.requireNonNull(receivedAt.get(witness), "kept with each report the ledger holds");
    }

    private void judge() {
        judgementQueued = false;
        MeshView previous = view();
        long nowNanos = writer.nanoTime();
        MeshJudgement judgement = judging.judge(nowNanos);
        Map<String, Instant> lastReports = new HashMap<>();
        Map<String, List<PathStreak>> streaks = new HashMap<>();
        ledger.reports().forEach((witness, received) -> {
            lastReports.put(witness, receivedAt(witness));
            streaks.put(witness, received.report().streaks());
        });
        Map<String, List<MeshView.Transition>> history = new HashMap<>();
        fleet.servers().forEach(server -> {
            List<MeshView.Transition> kept = previous.transitions().get(server.name());
            if (kept != null) {
                history.put(server.name(), kept);
            }
        });
        MeshView view = new MeshView(fleet, rules, judgement, lastReports, streaks, metrics(nowNanos), history);
        if (view.equals(previous)) {
            if (marks.remeasure(previous, nowNanos)) {
                updater.publish(MeshView.PART, previous, marks.of(previous, nowNanos));
            }
            return;
        }
        Map<String, List<String>> changes = transitions.log(previous.judgement(), judgement);
        if (!changes.isEmpty()) {
            Instant now = clock.instant();
            changes.forEach((server, list) -> {
                List<MeshView.Transition> kept = new ArrayList<>(history.getOrDefault(server, List.of()));
                list.forEach(change -> kept.add(new MeshView.Transition(now, change)));
                history.put(
                        server,
                        List.copyOf(kept.subList(Math.max(0, kept.size() - MeshView.TRANSITIONS), kept.size())));
            });
            view = new MeshView(fleet, rules, judgement, lastReports, streaks, view.metrics(), history);
        }
        updater.publish(MeshView.PART, view, marks.of(view, nowNanos));
    }

    /** By server, the newest metrics its witnesses reported, stale when older than {@code no-data-after}. */
    private Map<String, MeshView.Metrics> metrics(long nowNanos) {
        Map<String, MeshView.Metrics> metrics = new HashMap<>();
        for (MeshFleet.Witness witness : fleet.witnesses()) {
            String server = witness.server();
            MeshLedger.Received received = ledger.reports().get(witness.name());
            if (server == null
                    || received == null
                    || received.report().metrics().equals(ServerMetrics.NONE)) {
                continue;
            }
            boolean stale =
                    nowNanos - received.receivedAtNanos() > rules.noDataAfter().toNanos();
            metrics.merge(
                    server,
                    new MeshView.Metrics(received.report().metrics(), receivedAt(witness.name()), stale),
                    (a, b) -> a.reportTime().isAfter(b.reportTime()) ? a : b);
        }
        return metrics;
    }
}
