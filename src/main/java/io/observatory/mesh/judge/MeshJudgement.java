package io.observatory.mesh.judge;

import java.util.List;
import java.util.Map;

/**
 * The mesh verdicts at one moment: every server, every witness, every route. Immutable.
 *
 * @param servers   one verdict per server, in fleet order
 * @param witnesses one standing per witness, in fleet order
 * @param routes    what each route serves, sorted by route
 */
public record MeshJudgement(List<ServerVerdict> servers, List<WitnessStanding> witnesses, List<RouteServing> routes) {

    public MeshJudgement {
        servers = List.copyOf(servers);
        witnesses = List.copyOf(witnesses);
        routes = List.copyOf(routes);
    }

    /**
     * One server's verdict.
     *
     * @param name        the server
     * @param route       its route
     * @param status      its status
     * @param voters      for {@link MeshStatus#UNREACHABLE_FROM_SERVERS} and {@link MeshStatus#BLOCKED}, how many
     *                    witnesses' votes decided it; else 0
     * @param reason      why, e.g. {@code cannot reach s4/main: w1 (site de) streak 3, w2 (site nl) streak 3};
     *                    empty for {@link MeshStatus#OK}
     * @param inRotation  whether clients of its route may be given it by its own status (see {@link RouteServing}
     *                    for what the route serves when none is)
     * @param pairCuts    the entry points marked {@code PAIR_CUT}, by entry-point name, with the reason naming both
     *                    servers; such a server stays in rotation, ranked after unmarked ones
     */
    public record ServerVerdict(
            String name,
            String route,
            MeshStatus status,
            int voters,
            String reason,
            boolean inRotation,
            Map<String, String> pairCuts) {

        public ServerVerdict {
            pairCuts = Map.copyOf(pairCuts);
        }
    }

    /**
     * One witness's standing.
     *
     * @param name       the witness
     * @param site       its site
     * @param checker    whether it is a checker
     * @param reliable   whether its votes count: it votes against less than {@code unreliable-share} of the
     *                   neighbours it probes
     * @param share      voted-against neighbours / probed neighbours, 0-1 (0 when it probes none)
     * @param neighbours the servers it probes (not its own; not servers whose self-report says they are unavailable)
     */
    public record WitnessStanding(
            String name, String site, boolean checker, boolean reliable, double share, int neighbours) {}

    /**
     * What clients of one route may be given.
     *
     * @param route   the route
     * @param servers the servers served, best first (unmarked before marked, then by name); never empty when the
     *                route has servers
     * @param panic   whether none was in rotation, so the best-ranked are served anyway (Route 53 and Envoy "fail
     *                open" the same way)
     */
    public record RouteServing(String route, List<String> servers, boolean panic) {

        public RouteServing {
            servers = List.copyOf(servers);
        }
    }
}
