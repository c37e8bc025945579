package io.observatory.mesh.judge;

import io.observatory.mesh.judge.MeshEvidence.SelfReport;
import io.observatory.mesh.judge.MeshEvidence.Streak;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
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
 * two-layer vote, with Route 53's and Better Stack's quorum of locations, HAProxy's {@code fall}/{@code rise}, and
 * memberlist's Lifeguard idea that a prober whose failures nobody else shares is suspect, not the servers it fails).
 *
 * <ol>
 *   <li>A <b>vote</b>: witness W's streak against entry point E of server S reaches {@code streak} failures, and
 *       lasts until W's streak of successes on E reaches {@code streak} (a return needs its own streak, as
 *       HAProxy's {@code rise}; the previous judgement's votes are in {@link MeshEvidence#held}). A witness never
 *       votes against its own server, and a streak from a report older than {@code no-data-after} is no evidence at
 *       all (a witness that falls silent leaves no vote, mark or standing behind); a vote it held stays held, not
 *       counted, until its next report, so a witness back from a partition still needs its streak of successes.</li>
 *   <li>A witness's <b>neighbours</b> are the servers it probes, but its own and those whose self-report says they
 *       are unavailable (which explains failing to reach them). A vote is <b>shared</b> when a witness of another
 *       site votes against the same server too (witnesses of one site share a network, so their failures do not
 *       vouch for each other). A witness that is no checker is <b>unreliable</b> when it votes against every one of
 *       at least two neighbours (its own network, not theirs, is the likelier fault), or when its votes that no other
 *       site shares are more than {@code unreliable-share} of its neighbours. Its votes still mark what it cannot
 *       reach; they remove nobody and rank nothing. A checker is trusted: when it reaches no server, every server is
 *       BLOCKED, and each route keeps serving them as its last ones. Votes by a witness that is no checker against a
 *       server a checker runs on are set aside the same way.</li>
 *   <li>Per server, the first that holds: {@link MeshStatus#SERVER_UNAVAILABLE} (a fresh self-report names a failing
 *       check); {@link MeshStatus#UNREACHABLE_FROM_SERVERS} (counted votes of at least {@code quorum} witnesses, of at
 *       least {@code quorum-sites} distinct sites when that rule is on); {@link MeshStatus#BLOCKED} (a counted vote by
 *       a checker); {@link MeshStatus#NO_DATA} (no self-report within {@code no-data-after}); {@link MeshStatus#OK}.
 *   </li>
 *   <li>An OK or NO_DATA server's entry points with any vote are marked <b>pair cut</b>, naming both sides: still in
 *       rotation; a mark with a counted vote ranks the server after its route's unmarked servers.</li>
 *   <li>A route serves its servers in rotation (BLOCKED ones only when no other is); when none is, it serves its
 *       best-ranked ones in panic: OK, NO_DATA, pair cut, BLOCKED, UNREACHABLE_FROM_SERVERS, SERVER_UNAVAILABLE.</li>
 * </ol>
 *
 * <p>Cost: a few passes over the streaks (O(witnesses × entry points)) and over the servers; for 100 witnesses and
 * 100 servers about 10,000 streaks, a few milliseconds.
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
     * @param evidence the latest self-reports and streaks, and the votes the previous judgement held
     * @param rules    streak, quorum, quorum sites, unreliable share, no-data-after
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
        Set<MeshEvidence.Path> silentHeld = new HashSet<>();
        Map<String, Set<String>> probed = new HashMap<>();
        Map<String, Set<String>> votedAgainst = new HashMap<>();
        Map<String, Set<String>> sitesAgainst = new HashMap<>();
        for (Streak streak : evidence.streaks()) {
            Witness witness = witnesses.get(streak.witness());
            Server server = servers.get(streak.server());
            if (witness == null
                    || server == null
                    || streak.server().equals(witness.server())
                    || !server.entryPoints().contains(streak.entryPoint())) {
                continue;
            }
            if (nowNanos - streak.receivedAtNanos() > rules.noDataAfter().toNanos()) {
                if (evidence.held().contains(streak.path())) {
                    silentHeld.add(streak.path());
                }
                continue;
            }
            boolean vote = streak.failures() >= rules.streak()
                    || (evidence.held().contains(streak.path()) && streak.successes() < rules.streak());
            if (vote) {
                votes.add(streak);
                sitesAgainst
                        .computeIfAbsent(streak.server(), s -> new HashSet<>())
                        .add(witness.site());
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
            Set<String> against = votedAgainst.getOrDefault(witness.name(), Set.of());
            WitnessStanding standing = standing(
                    witness,
                    probed.getOrDefault(witness.name(), Set.of()).size(),
                    against.size(),
                    against.stream()
                            .filter(server ->
                                    sitesAgainst.getOrDefault(server, Set.of()).size() == 1)
                            .count(),
                    rules);
            if (standing.reliable()) {
                reliable.add(witness.name());
            }
            standings.add(standing);
        }
        Set<String> checkerServers = checkerServers(fleet);
        Map<String, List<Streak>> countedVotes = new HashMap<>();
        Map<String, List<Streak>> allVotes = new HashMap<>();
        for (Streak vote : votes) {
            allVotes.computeIfAbsent(vote.server(), s -> new ArrayList<>()).add(vote);
            if (counts(vote, witness(witnesses, vote), reliable.contains(vote.witness()), checkerServers)) {
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
                    allVotes.getOrDefault(server.name(), List.of()),
                    witnesses,
                    servers,
                    rules));
        }
        List<ServerVerdict> rotated = withBlockedServedAlone(verdicts);
        Set<MeshEvidence.Path> held = votes.stream().map(Streak::path).collect(Collectors.toSet());
        held.addAll(silentHeld);
        return new MeshJudgement(rotated, standings, routes(rotated), held);
    }

    /**
     * {@code witness}'s standing: a checker is always reliable; any other fails fewer than all of its neighbours (when
     * it has two or more), and no more than {@code unreliable-share} of them with no other site failing them.
     *
     * @param neighbours the servers it probes (see the class comment)
     * @param against    the neighbours it votes against
     * @param alone      of those, the ones no witness of another site votes against
     */
    static WitnessStanding standing(Witness witness, int neighbours, int against, long alone, MeshRules rules) {
        String reason = "";
        if (!witness.checker() && neighbours >= 2 && against == neighbours) {
            reason = "cannot reach any of the " + neighbours + " neighbours it probes";
        } else if (!witness.checker() && neighbours > 0 && (double) alone / neighbours > rules.unreliableShare()) {
            reason = "alone in failing " + alone + " of the " + neighbours + " neighbours it probes";
        }
        return new WitnessStanding(
                witness.name(),
                witness.site(),
                witness.checker(),
                reason.isEmpty(),
                neighbours == 0 ? 0 : (double) against / neighbours,
                neighbours,
                reason);
    }

    /**
     * Whether {@code vote} by {@code voter} counts towards a verdict and ranks its mark: its witness is reliable, and
     * is a checker or votes against a server no checker runs on (see the class comment).
     */
    static boolean counts(Streak vote, Witness voter, boolean reliable, Set<String> checkerServers) {
        return reliable && (voter.checker() || !checkerServers.contains(vote.server()));
    }

    /** The servers a checker runs on. */
    static Set<String> checkerServers(MeshFleet fleet) {
        return fleet.witnesses().stream()
                .filter(witness -> witness.checker() && witness.server() != null)
                .map(Witness::server)
                .collect(Collectors.toSet());
    }

    /**
     * The newer of two self-reports of one server: the later received, the smaller witness name when both came at
     * once (so that the choice does not depend on the order the reports are looked at).
     */
    static SelfReport newer(SelfReport a, SelfReport b) {
        if (a.receivedAtNanos() != b.receivedAtNanos()) {
            return a.receivedAtNanos() > b.receivedAtNanos() ? a : b;
        }
        return a.witness().compareTo(b.witness()) <= 0 ? a : b;
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
            latest.merge(witness.server(), report, MeshJudge::newer);
        }
        return latest;
    }

    /**
     * @param counted the votes against {@code server} that count (see {@link #counts})
     * @param all     every vote against {@code server}, counted or not
     */
    static ServerVerdict verdict(
            Server server,
            @Nullable SelfReport selfReport,
            List<Streak> counted,
            List<Streak> all,
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
        for (Streak vote : counted) {
            Witness voter = witness(witnesses, vote);
            voters.add(voter.name());
            sites.add(voter.site());
            if (voter.checker()) {
                checkers.add(voter.name());
            }
        }
        if (voters.size() >= rules.quorum() && sites.size() >= rules.quorumSites()) {
            return new ServerVerdict(
                    server.name(),
                    server.route(),
                    MeshStatus.UNREACHABLE_FROM_SERVERS,
                    voters.size(),
                    votesReason(server, counted, witnesses, rules),
                    false,
                    Map.of());
        }
        if (!checkers.isEmpty()) {
            List<Streak> checkerVotes =
                    counted.stream().filter(v -> checkers.contains(v.witness())).toList();
            return new ServerVerdict(
                    server.name(),
                    server.route(),
                    MeshStatus.BLOCKED,
                    checkers.size(),
                    "checker " + votesReason(server, checkerVotes, witnesses, rules),
                    false,
                    Map.of());
        }
        Map<String, PairCut> pairCuts = new TreeMap<>();
        for (String entryPoint : server.entryPoints()) {
            List<Streak> cutters = all.stream()
                    .filter(vote -> vote.entryPoint().equals(entryPoint))
                    .sorted(Comparator.comparing(Streak::witness))
                    .toList();
            if (!cutters.isEmpty()) {
                pairCuts.put(
                        entryPoint,
                        new PairCut(
                                cutters.stream()
                                        .map(vote -> from(witness(witnesses, vote), servers) + " cannot reach "
                                                + server.tag(entryPoint) + " (" + streak(vote, rules) + ")"
                                                + (counted.contains(vote) ? "" : ", not ranked"))
                                        .collect(Collectors.joining("; ")),
                                cutters.stream().anyMatch(counted::contains)));
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
    private static String votesReason(
            Server server, List<Streak> votes, Map<String, Witness> witnesses, MeshRules rules) {
        Map<String, List<Streak>> byEntryPoint = new TreeMap<>();
        votes.forEach(vote -> byEntryPoint
                .computeIfAbsent(vote.entryPoint(), e -> new ArrayList<>())
                .add(vote));
        List<String> parts = new ArrayList<>();
        byEntryPoint.forEach((entryPoint, entryVotes) -> parts.add("cannot reach " + server.tag(entryPoint) + ": "
                + entryVotes.stream()
                        .sorted(Comparator.comparing(Streak::witness))
                        .map(vote -> vote.witness() + " (site "
                                + witness(witnesses, vote).site() + ") " + streak(vote, rules))
                        .collect(Collectors.joining(", "))));
        return String.join("; ", parts);
    }

    /**
     * A vote's streak in words: {@code streak 3} while it fails, {@code held until 3 successes in a row, 1 so far}
     * while a held vote waits for its streak of successes.
     */
    private static String streak(Streak vote, MeshRules rules) {
        return vote.failures() > 0
                ? "streak " + vote.failures()
                : "held until " + rules.streak() + " successes in a row, " + vote.successes() + " so far";
    }

    /** BLOCKED servers are in rotation exactly when no other server of their route is. */
    static List<ServerVerdict> withBlockedServedAlone(List<ServerVerdict> verdicts) {
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
        byRoute.forEach((route, members) -> routes.add(route(route, members)));
        return routes;
    }

    /**
     * What {@code route} serves: its members in rotation, else (panic) its best-ranked members.
     *
     * @param members the route's verdicts, at least one, BLOCKED ones already kept or not by
     *                {@link #withBlockedServedAlone}
     */
    static RouteServing route(String route, List<ServerVerdict> members) {
        List<ServerVerdict> served =
                members.stream().filter(ServerVerdict::inRotation).toList();
        boolean panic = served.isEmpty();
        if (panic) {
            int best = members.stream().mapToInt(MeshJudge::rank).min().orElseThrow();
            served = members.stream().filter(verdict -> rank(verdict) == best).toList();
        }
        return new RouteServing(
                route,
                served.stream()
                        .sorted(Comparator.comparing(ServerVerdict::demoted).thenComparing(ServerVerdict::name))
                        .map(ServerVerdict::name)
                        .toList(),
                panic);
    }

    /**
     * The panic ranking: OK 0, NO_DATA 1, demoted by a pair cut 2, BLOCKED 3, UNREACHABLE_FROM_SERVERS 4,
     * SERVER_UNAVAILABLE 5.
     */
    @SuppressWarnings("EnumOrdinal") // MeshStatus is declared from best to worst: its order is its rank
    private static int rank(ServerVerdict verdict) {
        if (verdict.demoted()) {
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
