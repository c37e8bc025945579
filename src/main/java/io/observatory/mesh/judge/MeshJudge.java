package io.observatory.mesh.judge;

import io.observatory.mesh.judge.MeshEvidence.SelfReport;
import io.observatory.mesh.judge.MeshEvidence.Streak;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.text.GoDuration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The mesh verdict: a pure function of the fleet, the latest evidence, the rules and the time, recomputed from
 * scratch each time so that every status heals by itself (the design brief's "Statuses of a server"; the seed's
 * two-layer vote, with Route 53's and Better Stack's quorum of locations and memberlist's Lifeguard idea that a
 * prober missing many answers discounts its own judgement).
 *
 * <ol>
 *   <li>A <b>vote</b>: witness W's streak against entry point E of server S is at least {@code streak}; a witness
 *       never votes against its own server, and a streak from a report older than {@code no-data-after} is no
 *       evidence at all (a witness that falls silent leaves no vote, mark or standing behind).</li>
 *   <li>A witness is <b>unreliable</b> when it votes against at least {@code unreliable-share} of the neighbours it
 *       probes (servers with a vote against any entry point / servers probed, leaving out its own server and servers
 *       whose self-report says they are unavailable, which explains failing to reach them); its votes are set
 *       aside. Votes by a witness that is no checker against a server a checker runs on count for nothing.</li>
 *   <li>Per server, the first that holds: {@link MeshStatus#SERVER_UNAVAILABLE} (a fresh self-report names a failing
 *       check); {@link MeshStatus#UNREACHABLE_FROM_SERVERS} (counted votes from at least {@code quorum} distinct
 *       sites); {@link MeshStatus#BLOCKED} (a counted vote by a checker); {@link MeshStatus#NO_DATA} (no self-report
 *       within {@code no-data-after}); {@link MeshStatus#OK}.</li>
 *   <li>An OK or NO_DATA server's entry points with counted votes are marked <b>pair cut</b>: still in rotation,
 *       ranked after unmarked servers.</li>
 *   <li>A route serves its servers in rotation (BLOCKED ones only when no other is); when none is, it serves its
 *       best-ranked ones in panic: OK, NO_DATA, pair cut, BLOCKED, UNREACHABLE_FROM_SERVERS, SERVER_UNAVAILABLE.</li>
 * </ol>
 *
 * <p>Cost: one pass over the streaks (O(witnesses × entry points)) and over the servers; for 100 witnesses and 100
 * servers about 10,000 streaks, a few milliseconds.
 */
public final class MeshJudge {

    /**
     * The route ranking of a server in panic; pair-cut servers rank between NO_DATA and BLOCKED. {@link MeshStatus} is
     * declared from best to worst, so its order is its rank.
     */
    @SuppressWarnings("EnumOrdinal")
    private static final int PAIR_CUT_RANK = MeshStatus.NO_DATA.ordinal() + 1;

    private MeshJudge() {}

    /**
     * Judges the fleet.
     *
     * @param fleet    the servers and witnesses; evidence about names not in it is ignored
     * @param evidence the latest self-reports and streaks
     * @param rules    streak, quorum, unreliable share, no-data-after
     * @param nowNanos now, on the ticker of the self-reports' receive times
     */
    public static MeshJudgement judge(MeshFleet fleet, MeshEvidence evidence, MeshRules rules, long nowNanos) {
        Map<String, Witness> witnesses = new LinkedHashMap<>();
        fleet.witnesses().forEach(witness -> witnesses.put(witness.name(), witness));
        Map<String, Server> servers = new LinkedHashMap<>();
        fleet.servers().forEach(server -> servers.put(server.name(), server));

        Map<String, SelfReport> selfReports = latestSelfReports(evidence, witnesses, rules, nowNanos);
        Set<String> unavailable = new HashSet<>();
        selfReports.forEach((server, report) -> {
            if (report.failingCheck() != null) {
                unavailable.add(server);
            }
        });
        List<Streak> votes = new ArrayList<>();
        Map<String, Set<String>> probed = new HashMap<>();
        Map<String, Set<String>> votedAgainst = new HashMap<>();
        for (Streak streak : evidence.streaks()) {
            Witness witness = witnesses.get(streak.witness());
            Server server = servers.get(streak.server());
            if (witness == null
                    || server == null
                    || streak.server().equals(witness.server())
                    || !server.entryPoints().contains(streak.entryPoint())
                    || nowNanos - streak.receivedAtNanos() > rules.noDataAfter().toNanos()) {
                continue;
            }
            boolean vote = streak.failures() >= rules.streak();
            if (vote) {
                votes.add(streak);
            }
            if (!unavailable.contains(streak.server())) {
                probed.computeIfAbsent(streak.witness(), w -> new HashSet<>()).add(streak.server());
                if (vote) {
                    votedAgainst
                            .computeIfAbsent(streak.witness(), w -> new HashSet<>())
                            .add(streak.server());
                }
            }
        }
        List<WitnessStanding> standings = new ArrayList<>();
        Set<String> reliable = new HashSet<>();
        for (Witness witness : witnesses.values()) {
            int neighbours = probed.getOrDefault(witness.name(), Set.of()).size();
            double share = neighbours == 0
                    ? 0
                    : (double) votedAgainst
                                    .getOrDefault(witness.name(), Set.of())
                                    .size()
                            / neighbours;
            boolean isReliable = share < rules.unreliableShare();
            if (isReliable) {
                reliable.add(witness.name());
            }
            standings.add(new WitnessStanding(
                    witness.name(), witness.site(), witness.checker(), isReliable, share, neighbours));
        }
        Set<String> checkerServers = witnesses.values().stream()
                .filter(witness -> witness.checker() && witness.server() != null)
                .map(Witness::server)
                .collect(Collectors.toSet());
        Map<String, List<Streak>> countedVotes = new HashMap<>();
        for (Streak vote : votes) {
            Witness voter = witness(witnesses, vote);
            if (reliable.contains(vote.witness()) && (voter.checker() || !checkerServers.contains(vote.server()))) {
                countedVotes
                        .computeIfAbsent(vote.server(), s -> new ArrayList<>())
                        .add(vote);
            }
        }

        List<ServerVerdict> verdicts = new ArrayList<>();
        for (Server server : servers.values()) {
            verdicts.add(verdict(
                    server,
                    selfReports.get(server.name()),
                    countedVotes.getOrDefault(server.name(), List.of()),
                    witnesses,
                    servers,
                    rules));
        }
        List<ServerVerdict> rotated = withBlockedServedAlone(verdicts);
        return new MeshJudgement(rotated, standings, routes(rotated));
    }

    /** Per server, its witnesses' newest self-report that is not older than {@code no-data-after}. */
    private static Map<String, SelfReport> latestSelfReports(
            MeshEvidence evidence, Map<String, Witness> witnesses, MeshRules rules, long nowNanos) {
        Map<String, SelfReport> latest = new HashMap<>();
        for (SelfReport report : evidence.selfReports()) {
            Witness witness = witnesses.get(report.witness());
            if (witness == null
                    || witness.server() == null
                    || nowNanos - report.receivedAtNanos() > rules.noDataAfter().toNanos()) {
                continue;
            }
            latest.merge(witness.server(), report, (a, b) -> a.receivedAtNanos() >= b.receivedAtNanos() ? a : b);
        }
        return latest;
    }

    private static ServerVerdict verdict(
            Server server,
            @Nullable SelfReport selfReport,
            List<Streak> votes,
            Map<String, Witness> witnesses,
            Map<String, Server> servers,
            MeshRules rules) {
        if (selfReport != null && selfReport.failingCheck() != null) {
            return new ServerVerdict(
                    server.name(),
                    server.route(),
                    MeshStatus.SERVER_UNAVAILABLE,
                    0,
                    "self-check " + selfReport.failingCheck() + " fails (reported by " + selfReport.witness() + ")",
                    false,
                    Map.of());
        }
        Set<String> voters = new HashSet<>();
        Set<String> sites = new HashSet<>();
        Set<String> checkers = new HashSet<>();
        for (Streak vote : votes) {
            Witness voter = witness(witnesses, vote);
            voters.add(voter.name());
            sites.add(voter.site());
            if (voter.checker()) {
                checkers.add(voter.name());
            }
        }
        if (sites.size() >= rules.quorum()) {
            return new ServerVerdict(
                    server.name(),
                    server.route(),
                    MeshStatus.UNREACHABLE_FROM_SERVERS,
                    voters.size(),
                    votesReason(server, votes, witnesses),
                    false,
                    Map.of());
        }
        if (!checkers.isEmpty()) {
            List<Streak> checkerVotes =
                    votes.stream().filter(v -> checkers.contains(v.witness())).toList();
            return new ServerVerdict(
                    server.name(),
                    server.route(),
                    MeshStatus.BLOCKED,
                    checkers.size(),
                    "checker " + votesReason(server, checkerVotes, witnesses),
                    false,
                    Map.of());
        }
        Map<String, String> pairCuts = new TreeMap<>();
        for (String entryPoint : server.entryPoints()) {
            List<String> cutters = votes.stream()
                    .filter(vote -> vote.entryPoint().equals(entryPoint))
                    .sorted(Comparator.comparing(Streak::witness))
                    .map(vote -> from(witness(witnesses, vote), servers) + " cannot reach " + server.tag(entryPoint)
                            + " (streak " + vote.failures() + ")")
                    .toList();
            if (!cutters.isEmpty()) {
                pairCuts.put(entryPoint, String.join("; ", cutters));
            }
        }
        if (selfReport == null) {
            return new ServerVerdict(
                    server.name(),
                    server.route(),
                    MeshStatus.NO_DATA,
                    0,
                    "no self-report within " + GoDuration.format(rules.noDataAfter()),
                    true,
                    pairCuts);
        }
        return new ServerVerdict(server.name(), server.route(), MeshStatus.OK, 0, "", true, pairCuts);
    }

    /** Where a pair-cut vote comes from: {@code server s1 (witness w1)}, or {@code witness w9} for an external one. */
    private static String from(Witness witness, Map<String, Server> servers) {
        return witness.server() != null && servers.containsKey(witness.server())
                ? "server " + witness.server() + " (witness " + witness.name() + ")"
                : "witness " + witness.name();
    }

    /** E.g. {@code cannot reach s4/main: w1 (site de) streak 3, w2 (site nl) streak 3}, one part per entry point. */
    private static String votesReason(Server server, List<Streak> votes, Map<String, Witness> witnesses) {
        Map<String, List<Streak>> byEntryPoint = new TreeMap<>();
        votes.forEach(vote -> byEntryPoint
                .computeIfAbsent(vote.entryPoint(), e -> new ArrayList<>())
                .add(vote));
        List<String> parts = new ArrayList<>();
        byEntryPoint.forEach((entryPoint, entryVotes) -> parts.add("cannot reach " + server.tag(entryPoint) + ": "
                + entryVotes.stream()
                        .sorted(Comparator.comparing(Streak::witness))
                        .map(vote -> vote.witness() + " (site "
                                + witness(witnesses, vote).site() + ") streak " + vote.failures())
                        .collect(Collectors.joining(", "))));
        return String.join("; ", parts);
    }

    /** BLOCKED servers are in rotation exactly when no other server of their route is. */
    private static List<ServerVerdict> withBlockedServedAlone(List<ServerVerdict> verdicts) {
        Set<String> routesWithOthers = verdicts.stream()
                .filter(ServerVerdict::inRotation)
                .map(ServerVerdict::route)
                .collect(Collectors.toSet());
        return verdicts.stream()
                .map(verdict -> verdict.status() != MeshStatus.BLOCKED || routesWithOthers.contains(verdict.route())
                        ? verdict
                        : new ServerVerdict(
                                verdict.name(),
                                verdict.route(),
                                verdict.status(),
                                verdict.voters(),
                                verdict.reason() + "; kept: no other server of route " + verdict.route() + " is usable",
                                true,
                                verdict.pairCuts()))
                .toList();
    }

    private static List<RouteServing> routes(List<ServerVerdict> verdicts) {
        Map<String, List<ServerVerdict>> byRoute = new TreeMap<>();
        verdicts.forEach(verdict ->
                byRoute.computeIfAbsent(verdict.route(), r -> new ArrayList<>()).add(verdict));
        List<RouteServing> routes = new ArrayList<>();
        byRoute.forEach((route, members) -> {
            List<ServerVerdict> served =
                    members.stream().filter(ServerVerdict::inRotation).toList();
            boolean panic = served.isEmpty();
            if (panic) {
                int best = members.stream().mapToInt(MeshJudge::rank).min().orElseThrow();
                served = members.stream()
                        .filter(verdict -> rank(verdict) == best)
                        .toList();
            }
            routes.add(new RouteServing(
                    route,
                    served.stream()
                            .sorted(Comparator.comparing((ServerVerdict verdict) ->
                                            !verdict.pairCuts().isEmpty())
                                    .thenComparing(ServerVerdict::name))
                            .map(ServerVerdict::name)
                            .toList(),
                    panic));
        });
        return routes;
    }

    /** The panic ranking: OK 0, NO_DATA 1, pair cut 2, BLOCKED 3, UNREACHABLE_FROM_SERVERS 4, SERVER_UNAVAILABLE 5. */
    @SuppressWarnings("EnumOrdinal") // MeshStatus is declared from best to worst: its order is its rank
    private static int rank(ServerVerdict verdict) {
        if (!verdict.pairCuts().isEmpty()) {
            return PAIR_CUT_RANK;
        }
        int ordinal = verdict.status().ordinal();
        return ordinal >= PAIR_CUT_RANK ? ordinal + 1 : ordinal;
    }

    /** The witness that cast {@code vote}: a vote is evidence of a witness of the fleet. */
    private static Witness witness(Map<String, Witness> witnesses, Streak vote) {
        return Objects.requireNonNull(witnesses.get(vote.witness()), "a vote of a witness of the fleet");
    }
}
