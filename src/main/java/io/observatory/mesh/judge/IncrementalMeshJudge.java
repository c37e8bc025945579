package io.observatory.mesh.judge;

import io.observatory.mesh.judge.MeshEvidence.Path;
import io.observatory.mesh.judge.MeshEvidence.SelfReport;
import io.observatory.mesh.judge.MeshEvidence.Streak;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * {@link MeshJudge}'s judgement kept current as evidence arrives, re-judging only what the new evidence touches: each
 * {@link #judge} returns exactly what {@code MeshJudge.judge(fleet, evidence.holding(previous.votes()), rules, now)}
 * returns for the evidence reported so far and the judgement before (the property test holds the two to it), so
 * {@link MeshJudge} stays the specification and this class its bookkeeping.
 *
 * <p>What a report of witness W touches, in the order it is judged again:
 * <ol>
 *   <li>W's paths: which are votes (its streaks, the votes it held, and which streaks are older than
 *       {@code no-data-after}); one pass over W's streaks;</li>
 *   <li>the servers whose votes by W changed, the sites voting against them, and W's own server's latest
 *       self-report (a server that starts or stops saying it is unavailable changes the neighbours of every witness
 *       that probes it);</li>
 *   <li>the standing of W, and of the witnesses voting against a server whose voting sites went to or from one (the
 *       "alone" rule); one pass over each such witness's servers;</li>
 *   <li>the verdicts of those servers, and of every server voted against by a witness whose reliability flipped;
 *       </li>
 *   <li>the routes whose verdicts changed (their BLOCKED members and what they serve).</li>
 * </ol>
 * Ageing needs no report: each witness's earliest expiry (its oldest fresh streak or its self-report reaching
 * {@code no-data-after}) is kept in a queue, and a judgement looks again at the witnesses whose evidence expired
 * since the last one. A judgement that changes nothing returns the previous judgement itself.
 *
 * <p>Cost per report of a witness probing n entry points: O(n) for its paths, O(n) per standing judged again, one
 * verdict per server whose votes changed, and an O(servers + witnesses) copy of the result when anything changed. Held
 * per path: the witness's streak (the caller's object) and, for a vote, its place in the server's votes; per server and
 * witness a few set entries. Not thread-safe: one writer.
 */
public final class IncrementalMeshJudge {

    /** What one witness's paths say at the last look: its votes by server, the servers it probes, its held votes. */
    private record Looked(Map<String, List<Streak>> votes, Set<String> probed, Set<Path> held) {

        static final Looked NONE = new Looked(Map.of(), Set.of(), Set.of());
    }

    /** When a witness's oldest fresh evidence expires, and which look of it scheduled this. */
    private record Expiry(long atNanos, String witness, long look) {}

    private final MeshRules rules;
    private final long noDataAfterNanos;
    private final Map<String, Witness> witnesses = new LinkedHashMap<>();
    private final Map<String, Server> servers = new LinkedHashMap<>();
    private final Map<String, Integer> serverIndex = new HashMap<>();
    private final Map<String, List<String>> witnessesOn = new HashMap<>();
    private final Map<String, List<Server>> routeMembers = new TreeMap<>();
    private final Set<String> checkerServers;

    // The evidence, by witness: its self-report and its streaks of entry points it may vote on.
    private final Map<String, SelfReport> selfReports = new HashMap<>();
    private final Map<String, List<Streak>> streaks = new HashMap<>();

    // Derived, by witness and by server.
    private final Map<String, Looked> looked = new HashMap<>();
    private final Map<String, Long> looks = new HashMap<>();
    private final Map<String, Map<String, List<Streak>>> votesOn = new HashMap<>();
    private final Map<String, Map<String, Integer>> sitesAgainst = new HashMap<>();
    private final Map<String, Set<String>> probers = new HashMap<>();
    private final Map<String, SelfReport> latestSelfReports = new HashMap<>();
    private final Set<String> unavailable = new HashSet<>();
    private final Map<String, WitnessStanding> standings = new HashMap<>();
    private final Set<String> reliable = new HashSet<>();
    private final Map<String, ServerVerdict> verdicts = new HashMap<>();
    private final ServerVerdict[] served;
    private final Map<String, RouteServing> routes = new TreeMap<>();
    private final Set<Path> votes = new HashSet<>();

    // What the next judgement looks at again.
    private final Set<String> toLook = new HashSet<>();
    private final Set<String> selfReportsToJudge = new HashSet<>();
    private final Set<String> standingsToJudge = new HashSet<>();
    private final Set<String> serversToJudge = new HashSet<>();
    private final Set<String> routesToJudge = new HashSet<>();
    private final PriorityQueue<Expiry> expiries = new PriorityQueue<>(Comparator.comparingLong(Expiry::atNanos));
    private boolean changed = true;
    private boolean votesChanged = true;
    private @Nullable MeshJudgement last;

    /**
     * Starts from {@code evidence}: the first {@link #judge} judges all of it.
     *
     * @param fleet    the servers and witnesses; evidence about names not in it is ignored
     * @param evidence the latest self-reports and streaks, and the votes the judgement before held
     * @param rules    the rules
     */
    public IncrementalMeshJudge(MeshFleet fleet, MeshEvidence evidence, MeshRules rules) {
        this.rules = rules;
        this.noDataAfterNanos = rules.noDataAfter().toNanos();
        this.checkerServers = MeshJudge.checkerServers(fleet);
        for (Server server : fleet.servers()) {
            serverIndex.put(server.name(), servers.size());
            servers.put(server.name(), server);
            routeMembers
                    .computeIfAbsent(server.route(), route -> new ArrayList<>())
                    .add(server);
        }
        this.served = new ServerVerdict[servers.size()];
        for (Witness witness : fleet.witnesses()) {
            witnesses.put(witness.name(), witness);
            if (witness.server() != null) {
                witnessesOn
                        .computeIfAbsent(witness.server(), server -> new ArrayList<>())
                        .add(witness.name());
            }
        }
        Map<String, List<Streak>> byWitness = new HashMap<>();
        evidence.streaks()
                .forEach(streak -> byWitness
                        .computeIfAbsent(streak.witness(), witness -> new ArrayList<>())
                        .add(streak));
        Map<String, Set<Path>> heldByWitness = new HashMap<>();
        evidence.held()
                .forEach(path -> heldByWitness
                        .computeIfAbsent(path.witness(), witness -> new HashSet<>())
                        .add(path));
        for (Witness witness : fleet.witnesses()) {
            streaks.put(witness.name(), eligible(witness, byWitness.getOrDefault(witness.name(), List.of())));
            Set<Path> held = heldByWitness.getOrDefault(witness.name(), Set.of());
            looked.put(witness.name(), new Looked(Map.of(), Set.of(), held));
            votes.addAll(held);
            toLook.add(witness.name());
            standingsToJudge.add(witness.name());
        }
        evidence.selfReports().forEach(report -> {
            if (witnesses.containsKey(report.witness())) {
                selfReports.put(report.witness(), report);
            }
        });
        selfReportsToJudge.addAll(servers.keySet());
        serversToJudge.addAll(servers.keySet());
        routesToJudge.addAll(routeMembers.keySet());
    }

    /**
     * Takes {@code witness}'s new state, replacing what it reported before; judged at the next {@link #judge}.
     * Evidence of a witness not in the fleet is ignored.
     *
     * @param selfReport its self-report, or {@code null} when it sent none
     * @param streaks    its streaks, each path at most once; streaks of its own server or of entry points not in the
     *                   fleet are ignored
     */
    public void report(String witness, @Nullable SelfReport selfReport, List<Streak> streaks) {
        Witness known = witnesses.get(witness);
        if (known == null) {
            return;
        }
        this.streaks.put(witness, eligible(known, streaks));
        if (selfReport == null) {
            selfReports.remove(witness);
        } else {
            selfReports.put(witness, selfReport);
        }
        toLook.add(witness);
    }

    /**
     * The judgement at {@code nowNanos}: the previous one's, with what the reports since and the time that passed
     * changed. Returns the previous judgement itself when nothing changed.
     *
     * @param nowNanos now on the ticker of the evidence's receive times, not before the previous call's
     */
    public MeshJudgement judge(long nowNanos) {
        for (Expiry expiry = expiries.peek(); expiry != null && expiry.atNanos() < nowNanos; expiry = expiries.peek()) {
            expiries.poll();
            if (looks.getOrDefault(expiry.witness(), 0L) == expiry.look()) {
                toLook.add(expiry.witness());
            }
        }
        toLook.forEach(witness -> look(witness, nowNanos));
        toLook.clear();
        selfReportsToJudge.forEach(server -> judgeSelfReport(server, nowNanos));
        selfReportsToJudge.clear();
        standingsToJudge.forEach(this::judgeStanding);
        standingsToJudge.clear();
        serversToJudge.forEach(this::judgeServer);
        serversToJudge.clear();
        routesToJudge.forEach(this::judgeRoute);
        routesToJudge.clear();
        MeshJudgement previous = last;
        if (previous != null && !changed && !votesChanged) {
            return previous;
        }
        List<WitnessStanding> standingsInOrder = new ArrayList<>(witnesses.size());
        witnesses.keySet().forEach(witness -> standingsInOrder.add(Objects.requireNonNull(standings.get(witness))));
        MeshJudgement next = new MeshJudgement(
                Arrays.asList(served),
                standingsInOrder,
                List.copyOf(routes.values()),
                votesChanged || previous == null ? Set.copyOf(votes) : previous.votes());
        changed = false;
        votesChanged = false;
        last = next;
        return next;
    }

    /** The streaks of {@code witness} it may vote with: of entry points of the fleet, not of its own server. */
    private List<Streak> eligible(Witness witness, List<Streak> reported) {
        List<Streak> kept = new ArrayList<>(reported.size());
        for (Streak streak : reported) {
            Server server = servers.get(streak.server());
            if (server != null
                    && !streak.server().equals(witness.server())
                    && server.entryPoints().contains(streak.entryPoint())) {
                kept.add(streak);
            }
        }
        return kept;
    }

    /** Looks again at {@code witness}'s paths and notes what changed for its servers, itself and the others. */
    private void look(String name, long nowNanos) {
        Witness witness = Objects.requireNonNull(witnesses.get(name));
        Looked before = looked.getOrDefault(name, Looked.NONE);
        Map<String, List<Streak>> votesNow = new HashMap<>();
        Set<String> probedNow = new HashSet<>();
        Set<Path> heldNow = new HashSet<>();
        long expires = Long.MAX_VALUE;
        for (Streak streak : streaks.getOrDefault(name, List.of())) {
            Path path = streak.path();
            if (nowNanos - streak.receivedAtNanos() > noDataAfterNanos) {
                if (before.held().contains(path)) {
                    heldNow.add(path);
                }
                continue;
            }
            expires = Math.min(expires, streak.receivedAtNanos() + noDataAfterNanos);
            if (streak.failures() >= rules.streak()
                    || (before.held().contains(path) && streak.successes() < rules.streak())) {
                votesNow.computeIfAbsent(streak.server(), server -> new ArrayList<>())
                        .add(streak);
                heldNow.add(path);
            }
            probedNow.add(streak.server());
        }
        SelfReport selfReport = selfReports.get(name);
        if (selfReport != null && nowNanos - selfReport.receivedAtNanos() <= noDataAfterNanos) {
            expires = Math.min(expires, selfReport.receivedAtNanos() + noDataAfterNanos);
        }
        Set<String> votedOn = new HashSet<>(before.votes().keySet());
        votedOn.addAll(votesNow.keySet());
        for (String server : votedOn) {
            voteChanged(witness, server, before.votes().get(server), votesNow.get(server));
        }
        for (String server : before.probed()) {
            if (!probedNow.contains(server)) {
                removeFrom(probers, server, name);
            }
        }
        for (String server : probedNow) {
            if (!before.probed().contains(server)) {
                probers.computeIfAbsent(server, s -> new HashSet<>()).add(name);
            }
        }
        if (!heldNow.equals(before.held())) {
            votes.removeAll(before.held());
            votes.addAll(heldNow);
            votesChanged = true;
        }
        looked.put(name, new Looked(votesNow, probedNow, heldNow));
        standingsToJudge.add(name);
        if (witness.server() != null) {
            selfReportsToJudge.add(witness.server());
        }
        long look = looks.merge(name, 1L, Long::sum);
        if (expires != Long.MAX_VALUE) {
            expiries.add(new Expiry(expires, name, look));
        }
    }

    /** {@code witness}'s votes against {@code server} went from {@code before} to {@code now}. */
    private void voteChanged(
            Witness witness, String server, @Nullable List<Streak> before, @Nullable List<Streak> now) {
        if (Objects.equals(before, now)) {
            return;
        }
        serversToJudge.add(server);
        Map<String, List<Streak>> on = votesOn.computeIfAbsent(server, s -> new HashMap<>());
        if (now == null) {
            on.remove(witness.name());
        } else {
            on.put(witness.name(), now);
        }
        if ((before == null) != (now == null)) {
            Map<String, Integer> sites = sitesAgainst.computeIfAbsent(server, s -> new HashMap<>());
            boolean aloneBefore = sites.size() == 1;
            if (now != null) {
                sites.merge(witness.site(), 1, Integer::sum);
            } else {
                sites.computeIfPresent(witness.site(), (site, count) -> count == 1 ? null : count - 1);
            }
            if (aloneBefore != (sites.size() == 1)) {
                standingsToJudge.addAll(on.keySet());
            }
            if (sites.isEmpty()) {
                sitesAgainst.remove(server);
            }
        }
        if (on.isEmpty()) {
            votesOn.remove(server);
        }
    }

    /** The newest fresh self-report of {@code server}'s witnesses, and whether it says the server is unavailable. */
    private void judgeSelfReport(String server, long nowNanos) {
        SelfReport latest = null;
        for (String witness : witnessesOn.getOrDefault(server, List.of())) {
            SelfReport report = selfReports.get(witness);
            if (report != null && nowNanos - report.receivedAtNanos() <= noDataAfterNanos) {
                latest = latest == null ? report : MeshJudge.newer(latest, report);
            }
        }
        if (!Objects.equals(latest, latestSelfReports.get(server))) {
            if (latest == null) {
                latestSelfReports.remove(server);
            } else {
                latestSelfReports.put(server, latest);
            }
            serversToJudge.add(server);
        }
        boolean isUnavailable = latest != null && latest.failingCheck() != null;
        if (isUnavailable != unavailable.contains(server)) {
            if (isUnavailable) {
                unavailable.add(server);
            } else {
                unavailable.remove(server);
            }
            standingsToJudge.addAll(probers.getOrDefault(server, Set.of()));
        }
    }

    private void judgeStanding(String name) {
        Witness witness = Objects.requireNonNull(witnesses.get(name));
        Looked paths = looked.getOrDefault(name, Looked.NONE);
        int neighbours = 0;
        for (String server : paths.probed()) {
            if (!unavailable.contains(server)) {
                neighbours++;
            }
        }
        int against = 0;
        long alone = 0;
        for (String server : paths.votes().keySet()) {
            if (!unavailable.contains(server)) {
                against++;
                if (sitesAgainst.getOrDefault(server, Map.of()).size() == 1) {
                    alone++;
                }
            }
        }
        WitnessStanding standing = MeshJudge.standing(witness, neighbours, against, alone, rules);
        WitnessStanding before = standings.put(name, standing);
        if (standing.equals(before)) {
            return;
        }
        changed = true;
        if (before == null || before.reliable() != standing.reliable()) {
            if (standing.reliable()) {
                reliable.add(name);
            } else {
                reliable.remove(name);
            }
            serversToJudge.addAll(paths.votes().keySet());
        }
    }

    private void judgeServer(String name) {
        Server server = Objects.requireNonNull(servers.get(name));
        List<Streak> all = new ArrayList<>();
        List<Streak> counted = new ArrayList<>();
        votesOn.getOrDefault(name, Map.of()).forEach((witness, against) -> {
            Witness voter = Objects.requireNonNull(witnesses.get(witness));
            for (Streak vote : against) {
                all.add(vote);
                if (MeshJudge.counts(vote, voter, reliable.contains(witness), checkerServers)) {
                    counted.add(vote);
                }
            }
        });
        ServerVerdict verdict =
                MeshJudge.verdict(server, latestSelfReports.get(name), counted, all, witnesses, servers, rules);
        if (!verdict.equals(verdicts.put(name, verdict))) {
            routesToJudge.add(server.route());
        }
    }

    private void judgeRoute(String route) {
        List<Server> members = Objects.requireNonNull(routeMembers.get(route));
        List<ServerVerdict> judged = new ArrayList<>(members.size());
        members.forEach(server -> judged.add(Objects.requireNonNull(verdicts.get(server.name()))));
        List<ServerVerdict> kept = MeshJudge.withBlockedServedAlone(judged);
        for (int i = 0; i < members.size(); i++) {
            int index = Objects.requireNonNull(serverIndex.get(members.get(i).name()));
            if (!kept.get(i).equals(served[index])) {
                served[index] = kept.get(i);
                changed = true;
            }
        }
        RouteServing serving = MeshJudge.route(route, kept);
        if (!serving.equals(routes.put(route, serving))) {
            changed = true;
        }
    }

    private static void removeFrom(Map<String, Set<String>> sets, String key, String value) {
        Set<String> set = sets.get(key);
        if (set != null) {
            set.remove(value);
            if (set.isEmpty()) {
                sets.remove(key);
            }
        }
    }
}
