package io.observatory.mesh.judge;

import io.observatory.mesh.judge.MeshEvidence.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The mesh verdicts at one moment: every server, every witness, every route. Immutable.
 *
 * @param servers   one verdict per server, in fleet order
 * @param witnesses one standing per witness, in fleet order
 * @param routes    what each route serves, sorted by route
 * @param votes     every path that is a vote now, counted or not, and the votes whose witness fell silent (held,
 *                  not counted, until its next report): the next judgement's {@link MeshEvidence#held}
 */
public record MeshJudgement(
        List<ServerVerdict> servers, List<WitnessStanding> witnesses, List<RouteServing> routes, Set<Path> votes) {

    public MeshJudgement {
        servers = List.copyOf(servers);
        witnesses = List.copyOf(witnesses);
        routes = List.copyOf(routes);
        votes = Set.copyOf(votes);
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
     * @param pairCuts    the entry points marked {@code PAIR_CUT}, by entry-point name; such a server stays in
     *                    rotation
     */
    public record ServerVerdict(
            String name,
            String route,
            MeshStatus status,
            int voters,
            String reason,
            boolean inRotation,
            Map<String, PairCut> pairCuts) {

        public ServerVerdict {
            pairCuts = Map.copyOf(pairCuts);
        }

        /** Whether a mark that ranks ranks it after the unmarked servers of its route. */
        public boolean demoted() {
            return pairCuts.values().stream().anyMatch(PairCut::ranked);
        }
    }

    /**
     * An entry point some witness cannot reach, short of a verdict on its server.
     *
     * @param reason names both sides, e.g. {@code server s1 (witness w1) cannot reach s3/main (streak 3)}, one part
     *               per witness
     * @param ranked whether it ranks the server after unmarked ones: some counted vote makes it. A mark made only by
     *               votes that are set aside (an unreliable witness; a witness that is no checker against a checker's
     *               server) is shown and ranks nothing
     */
    public record PairCut(String reason, boolean ranked) {

        public PairCut {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * One witness's standing.
     *
     * @param name       the witness
     * @param site       its site
     * @param checker    whether it is a checker
     * @param reliable   whether its votes count towards removing servers (a checker always; see {@link MeshJudge})
     * @param share      voted-against neighbours / probed neighbours, 0-1 (0 when it probes none)
     * @param neighbours the servers it probes (not its own; not servers whose self-report says they are unavailable)
     * @param reason     why it is unreliable, e.g. {@code cannot reach any of the 2 neighbours it probes}; empty
     *                   when reliable
     */
    public record WitnessStanding(
            String name, String site, boolean checker, boolean reliable, double share, int neighbours, String reason) {

        public WitnessStanding {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * What clients of one route may be given.
     *
     * @param route   the route
     * @param servers the servers served, best first (undemoted before demoted, then by name); never empty when the
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
