package io.observatory.mesh.hub;

import io.observatory.health.HealthState;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.SourceHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns a {@link MeshView} into the mesh health source's state of each entry point ({@link SourceHealth}, which the
 * combined verdict takes with the active and passive states): OK is
 * HEALTHY; a pair cut (on an OK or NO_DATA server) and a BLOCKED server its route cannot do without are DEGRADED;
 * NO_DATA is UNKNOWN (silence is not a verdict); out of rotation is UNHEALTHY, except for the servers a route in
 * panic serves anyway (none of its servers is in rotation), which are DEGRADED and alive, so that balancers reading
 * the v1, health or Xray APIs fail open as {@code ListRoute} does.
 *
 * <p>The state follows every judgement; the measurement behind it (the median of the witnesses' last RTTs to the
 * entry point, when one last reached it, when one last tried) is taken again at most once per
 * {@link #MEASURE_INTERVAL}: it is one pass over the whole matrix (a million paths at 1,000 × 1,000), while a
 * judgement costs O(servers). Writer-confined. Holds per entry point its last measurement and mark.
 */
final class MeshMarks {

    /** How often the measurements are taken again from the matrix, at most. */
    static final Duration MEASURE_INTERVAL = Duration.ofSeconds(1);

    /** An entry point's measurement: median RTT in milliseconds, when last reached, when last tried. */
    private record Rtt(
            long delayMillis,
            @Nullable Instant lastSeen,
            @Nullable Instant lastTry) {

        static final Rtt NONE = new Rtt(OutboundStatus.DEAD_DELAY_MILLIS, null, null);
    }

    private Map<String, Rtt> measured = Map.of();
    private Map<String, Marked> marked = Map.of();
    private @Nullable MeshView measuredView;
    private long measuredAtNanos;

    /**
     * The mark of every entry point of the fleet, by tag {@code <server>/<entry>}: O(entry points), plus one pass
     * over the matrix when the last measurement is {@link #MEASURE_INTERVAL} old.
     *
     * @param nowNanos now on the writer's ticker
     */
    @SuppressWarnings("ReferenceEquality") // a fleet change builds a new fleet: its entry points are measured at once
    Map<String, SourceHealth> of(MeshView view, long nowNanos) {
        if (measuredView == null || view.fleet() != measuredView.fleet() || remeasure(view, nowNanos)) {
            measured = measure(view);
            measuredView = view;
            measuredAtNanos = nowNanos;
        }
        Map<String, MeshFleet.Server> servers = new HashMap<>();
        view.fleet().servers().forEach(server -> servers.put(server.name(), server));
        Set<String> servedInPanic = new HashSet<>();
        view.judgement().routes().stream()
                .filter(RouteServing::panic)
                .forEach(route -> servedInPanic.addAll(route.servers()));
        Map<String, SourceHealth> marks = new HashMap<>();
        Map<String, Marked> nowMarked = new HashMap<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            MeshFleet.Server server = Objects.requireNonNull(servers.get(verdict.name()), "a verdict of the fleet");
            boolean panic = servedInPanic.contains(verdict.name());
            for (String entryPoint : server.entryPoints()) {
                String tag = server.tag(entryPoint);
                Rtt rtt = measured.getOrDefault(tag, Rtt.NONE);
                Marked before = marked.get(tag);
                Marked mark =
                        before != null && before.verdict() == verdict && before.rtt() == rtt && before.panic() == panic
                                ? before
                                : new Marked(
                                        verdict,
                                        rtt,
                                        panic,
                                        mark(verdict, verdict.pairCuts().get(entryPoint), rtt, panic));
                nowMarked.put(tag, mark);
                marks.put(tag, mark.health());
            }
        }
        marked = nowMarked;
        return marks;
    }

    /** An entry point's mark and what it was made of, compared by reference: a verdict the judge kept is the same. */
    private record Marked(ServerVerdict verdict, Rtt rtt, boolean panic, SourceHealth health) {}

    /**
     * Whether the measurements are of an older matrix than {@code view}'s and {@link #MEASURE_INTERVAL} old: the
     * marks of {@code view} would then change although its judgement did not.
     */
    @SuppressWarnings("ReferenceEquality") // each view is published once: another view is another reference
    boolean remeasure(MeshView view, long nowNanos) {
        return view != measuredView && nowNanos - measuredAtNanos >= MEASURE_INTERVAL.toNanos();
    }

    /**
     * Every entry point's measurement from the matrix: one pass over it, looking each path's entry point up by server
     * and entry (no string built per path), the RTTs gathered in primitive arrays.
     */
    private static Map<String, Rtt> measure(MeshView view) {
        Map<String, Map<String, Gathered>> byServer = new HashMap<>();
        view.fleet().servers().forEach(server -> {
            Map<String, Gathered> entries = new HashMap<>();
            server.entryPoints().forEach(entry -> entries.put(entry, new Gathered()));
            byServer.put(server.name(), entries);
        });
        view.streaks().forEach((witness, streaks) -> {
            Instant at = view.lastReports().get(witness);
            if (at == null) {
                return;
            }
            for (PathStreak streak : streaks) {
                Map<String, Gathered> entries = byServer.get(streak.server());
                Gathered gathered = entries == null ? null : entries.get(streak.entryPoint());
                if (gathered != null) {
                    gathered.add(at, streak);
                }
            }
        });
        Map<String, Rtt> measured = new HashMap<>();
        byServer.forEach((server, entries) -> entries.forEach((entry, gathered) -> {
            if (gathered.lastTry != null) {
                measured.put(server + "/" + entry, gathered.rtt());
            }
        }));
        return measured;
    }

    /** One entry point's paths as a pass over the matrix meets them. */
    private static final class Gathered {

        private long[] rtts = new long[16];
        private int reached;
        private @Nullable Instant lastSeen;
        private @Nullable Instant lastTry;

        void add(Instant at, PathStreak streak) {
            lastTry = lastTry == null ? at : later(lastTry, at);
            if (streak.last().success()) {
                if (reached == rtts.length) {
                    rtts = Arrays.copyOf(rtts, reached * 2);
                }
                rtts[reached++] = streak.last().rttNanos();
                lastSeen = lastSeen == null ? at : later(lastSeen, at);
            }
        }

        Rtt rtt() {
            if (reached == 0) {
                return new Rtt(OutboundStatus.DEAD_DELAY_MILLIS, lastSeen, lastTry);
            }
            Arrays.sort(rtts, 0, reached);
            return new Rtt(rtts[reached / 2] / 1_000_000, lastSeen, lastTry);
        }
    }

    /** A status as log lines and details write it, e.g. {@code unreachable_from_servers(2)}, {@code no_data}. */
    static String word(ServerVerdict verdict) {
        String word = verdict.status().name().toLowerCase(Locale.ROOT);
        return verdict.voters() > 0 ? word + "(" + verdict.voters() + ")" : word;
    }

    private static SourceHealth mark(ServerVerdict verdict, @Nullable PairCut pairCut, Rtt rtt, boolean panic) {
        boolean inRotation = verdict.inRotation() || panic;
        boolean degraded = pairCut != null && pairCut.ranked();
        HealthState state = switch (verdict.status()) {
            case OK -> degraded ? HealthState.DEGRADED : HealthState.HEALTHY;
            case NO_DATA -> degraded ? HealthState.DEGRADED : HealthState.UNKNOWN;
            case BLOCKED, UNREACHABLE_FROM_SERVERS, SERVER_UNAVAILABLE ->
                inRotation ? HealthState.DEGRADED : HealthState.UNHEALTHY;
        };
        String detail = word(verdict)
                + (verdict.reason().isEmpty() ? "" : ": " + verdict.reason())
                + (pairCut != null ? "; pair cut: " + pairCut.reason() : "")
                + (panic && !verdict.inRotation()
                        ? "; served in panic: no server of route " + verdict.route() + " is in rotation"
                        : "");
        return new SourceHealth(
                MeshView.PART.name(),
                state,
                detail,
                new SourceHealth.Measurement(inRotation, rtt.delayMillis(), rtt.lastSeen(), rtt.lastTry()));
    }

    private static Instant later(Instant a, Instant b) {
        return b.isAfter(a) ? b : a;
    }
}
