package io.observatory.mesh.hub;

import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.snapshot.SnapshotPart;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a hub knows of the mesh at one moment, as every reader reads it: the fleet, the verdicts, and the evidence
 * behind them. Immutable; published whole by the writer as the snapshot's part {@link #PART}, with the states of the
 * entry points, so that a reader sees the view and the outbounds of one publication. Holds each witness's last
 * streaks as the ledger holds them (one list per witness, shared, not copied), so building a view costs
 * O(witnesses + servers), not O(paths); the matrix as one list ({@link #paths()}) is built on demand.
 *
 * @param fleet       the servers and witnesses
 * @param rules       the rules the judgement followed
 * @param judgement   every server's verdict, every witness's standing, every route's servers
 * @param lastReports when the hub last took a report from each witness that sent one (hub wall clock)
 * @param streaks     the witness × entry-point matrix: by witness, the streaks of its last report (entry points
 *                    of the fleet only)
 * @param metrics     by server, the metrics its witness reported last (about 100 bytes a server)
 * @param transitions by server, its last {@value #TRANSITIONS} transitions and those of its entry points, oldest
 *                    first (each with its reason, which lists the voters: about 3 KB a server of a 10-witness fleet,
 *                    up to about 60 KB with 100 witnesses voting)
 */
public record MeshView(
        MeshFleet fleet,
        MeshRules rules,
        MeshJudgement judgement,
        Map<String, Instant> lastReports,
        Map<String, List<PathStreak>> streaks,
        Map<String, Metrics> metrics,
        Map<String, List<Transition>> transitions) {

    /** How many transitions a server's card keeps. */
    public static final int TRANSITIONS = 20;

    /** The view of a hub that has no fleet. */
    public static final MeshView EMPTY;

    /**
     * The mesh's part of the snapshot and its health source, {@code mesh}: the view, published with the states of
     * the hub's entry points.
     */
    public static final SnapshotPart<MeshView> PART;

    static {
        EMPTY = new MeshView(
                new MeshFleet(List.of(), List.of()),
                MeshRules.DEFAULTS,
                new MeshJudgement(List.of(), List.of(), List.of(), Set.of()),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of());
        PART = new SnapshotPart<>("mesh", MeshView.class, EMPTY);
    }

    public MeshView {
        Objects.requireNonNull(fleet, "fleet");
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(judgement, "judgement");
        lastReports = Map.copyOf(lastReports);
        streaks = Map.copyOf(streaks);
        metrics = Map.copyOf(metrics);
        transitions = Map.copyOf(transitions);
    }

    /**
     * The matrix as one list, by witness then server and entry point, each cell with its report's time (a witness
     * without a report time has no cell). Built on each call: O(paths × log paths), for answers and pages, not for
     * every judgement.
     */
    public List<Path> paths() {
        List<Path> paths = new ArrayList<>();
        streaks.forEach((witness, reported) -> {
            Instant at = lastReports.get(witness);
            if (at != null) {
                reported.forEach(streak -> paths.add(new Path(witness, streak, at)));
            }
        });
        paths.sort(Comparator.comparing(Path::witness)
                .thenComparing(path -> path.streak().server())
                .thenComparing(path -> path.streak().entryPoint()));
        return paths;
    }

    /**
     * One transition of a server or of one of its entry points, as the hub logged it.
     *
     * @param time   when the hub judged it (hub wall clock)
     * @param change e.g. {@code ok -> unreachable_from_servers(2) (cannot reach s4/main: …), out of rotation} or
     *               {@code main: pair cut healed}
     */
    public record Transition(Instant time, String change) {}

    /**
     * One cell of the matrix: what {@code witness} last reported about one entry point.
     *
     * @param witness    the witness
     * @param streak     the entry point, its failure streak and last probe
     * @param reportTime when the hub received the report that carried it
     */
    public record Path(String witness, PathStreak streak, Instant reportTime) {}

    /**
     * A server's metrics as its witness last reported them.
     *
     * @param metrics    the values
     * @param reportTime when the hub received the report that carried them
     * @param stale      whether that report was older than {@code no-data-after} when the hub last judged: the values
     *                   are the last known, not the current ones
     */
    public record Metrics(ServerMetrics metrics, Instant reportTime, boolean stale) {}
}
