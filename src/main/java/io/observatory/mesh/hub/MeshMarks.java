package io.observatory.mesh.hub;

import io.observatory.health.HealthState;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.snapshot.SourceHealth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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
 * the v1, health or Xray APIs fail open as {@code ListRoute} does. Pure; one pass over the servers and the matrix.
 */
final class MeshMarks {

    private MeshMarks() {}

    /** The mark of every entry point of the fleet, by tag {@code <server>/<entry>}. */
    static Map<String, SourceHealth> of(MeshView view) {
        Map<String, List<MeshView.Path>> pathsByTag = new HashMap<>();
        view.paths()
                .forEach(path -> pathsByTag
                        .computeIfAbsent(
                                path.streak().server() + "/" + path.streak().entryPoint(), tag -> new ArrayList<>())
                        .add(path));
        Map<String, MeshFleet.Server> servers = new HashMap<>();
        view.fleet().servers().forEach(server -> servers.put(server.name(), server));
        Set<String> servedInPanic = new HashSet<>();
        view.judgement().routes().stream()
                .filter(RouteServing::panic)
                .forEach(route -> servedInPanic.addAll(route.servers()));
        Map<String, SourceHealth> marks = new HashMap<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            MeshFleet.Server server = Objects.requireNonNull(servers.get(verdict.name()), "a verdict of the fleet");
            for (String entryPoint : server.entryPoints()) {
                String tag = server.tag(entryPoint);
                marks.put(
                        tag,
                        mark(
                                verdict,
                                verdict.pairCuts().get(entryPoint),
                                pathsByTag.getOrDefault(tag, List.of()),
                                servedInPanic.contains(verdict.name())));
            }
        }
        return marks;
    }

    /** A status as log lines and details write it, e.g. {@code unreachable_from_servers(2)}, {@code no_data}. */
    static String word(ServerVerdict verdict) {
        String word = verdict.status().name().toLowerCase(Locale.ROOT);
        return verdict.voters() > 0 ? word + "(" + verdict.voters() + ")" : word;
    }

    private static SourceHealth mark(
            ServerVerdict verdict, @Nullable PairCut pairCut, List<MeshView.Path> paths, boolean panic) {
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
        List<Long> rtts = new ArrayList<>();
        Instant lastSeen = null;
        Instant lastTry = null;
        for (MeshView.Path path : paths) {
            lastTry = later(lastTry, path.reportTime());
            if (path.streak().last().success()) {
                rtts.add(path.streak().last().rttNanos());
                lastSeen = later(lastSeen, path.reportTime());
            }
        }
        rtts.sort(null);
        long delay = rtts.isEmpty() ? OutboundStatus.DEAD_DELAY_MILLIS : rtts.get(rtts.size() / 2) / 1_000_000;
        return new SourceHealth(
                MeshView.PART.name(),
                state,
                detail,
                new SourceHealth.Measurement(inRotation, delay, lastSeen, lastTry));
    }

    private static Instant later(@Nullable Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }
}
