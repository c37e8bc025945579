package io.observatory.mesh.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.mesh.judge.MeshEvidence.SelfReport;
import io.observatory.mesh.judge.MeshEvidence.Streak;
import io.observatory.mesh.judge.MeshFleet.Server;
import io.observatory.mesh.judge.MeshFleet.Witness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The property that makes {@link IncrementalMeshJudge} safe to use: on random fleets, rules and sequences of reports
 * and passing time, it returns at every step exactly what {@link MeshJudge} returns judging everything from scratch
 * with the previous judgement's votes held, as the hub did before. Each case is one seed; a failure names it and the
 * step, so it replays (the generator is plain {@link Random}: jqwik, the usual tool, asks not to be used by coding
 * agents, and a seed replays as well).
 *
 * <p>The generator favours the rules' edges: streaks around the streak length (failures and successes), votes shared
 * by few sites, self-reports failing, witnesses falling silent past {@code no-data-after} and coming back, checkers,
 * external witnesses, routes of one server, and reports naming their own server or entry points not in the fleet; and
 * now and then it starts a new incremental judge from the evidence and the votes held, as the hub does on a reload,
 * often of a changed fleet (a witness moved, made a checker, of another site, or gone).
 */
class IncrementalMeshJudgeTest {

    private static final int CASES = 400;
    private static final int STEPS = 60;

    static LongStream seeds() {
        return LongStream.range(0, CASES);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void judgeWhenReportsAndTimeComeInAnyOrderThenTheSameAsJudgingFromScratch(long seed) {
        Random random = new Random(seed);
        Fleet fleet = Fleet.random(random);
        MeshRules rules = new MeshRules(
                1 + random.nextInt(3),
                1 + random.nextInt(3),
                random.nextInt(3),
                List.of(0.25, 0.5, 1.0).get(random.nextInt(3)),
                Duration.ofSeconds(30));
        long now = Duration.ofMinutes(5).toNanos();
        Map<String, SelfReport> selfReports = new HashMap<>();
        Map<String, List<Streak>> streaks = new HashMap<>();
        MeshJudgement scratch = MeshJudge.judge(fleet.fleet(), new MeshEvidence(List.of(), List.of()), rules, now);
        IncrementalMeshJudge incremental =
                new IncrementalMeshJudge(fleet.fleet(), new MeshEvidence(List.of(), List.of()), rules);
        assertThat(incremental.judge(now)).as("seed %d, start", seed).isEqualTo(scratch);

        for (int step = 1; step <= STEPS; step++) {
            int reports = random.nextInt(4);
            for (int i = 0; i < reports; i++) {
                Witness witness =
                        fleet.witnesses().get(random.nextInt(fleet.witnesses().size()));
                SelfReport self = witness.server() == null && random.nextBoolean()
                        ? null
                        : new SelfReport(witness.name(), now, random.nextInt(6) == 0 ? "tcp :443" : null);
                List<Streak> paths = fleet.paths(witness, now, rules, random);
                if (self == null) {
                    selfReports.remove(witness.name());
                } else {
                    selfReports.put(witness.name(), self);
                }
                streaks.put(witness.name(), paths);
                incremental.report(witness.name(), self, paths);
            }
            now += random.nextInt(4) == 0
                    ? Duration.ofSeconds(random.nextInt(40)).toNanos()
                    : random.nextInt(3);
            MeshEvidence evidence = evidence(selfReports, streaks, random).holding(scratch.votes());
            if (random.nextInt(15) == 0) {
                // As the hub after a reload, often of a changed fleet: a new incremental judge from the evidence and
                // the votes held.
                if (random.nextBoolean()) {
                    fleet = fleet.changed(random);
                }
                incremental = new IncrementalMeshJudge(fleet.fleet(), evidence, rules);
            }
            MeshJudgement expected = MeshJudge.judge(fleet.fleet(), evidence, rules, now);

            assertThat(incremental.judge(now))
                    .as("seed %d, step %d", seed, step)
                    .isEqualTo(expected);
            scratch = expected;
        }
    }

    @Test
    void judgeWhenNothingChangedThenThePreviousJudgementItself() {
        Fleet fleet = Fleet.random(new Random(7));
        IncrementalMeshJudge incremental =
                new IncrementalMeshJudge(fleet.fleet(), new MeshEvidence(List.of(), List.of()), MeshRules.DEFAULTS);
        MeshJudgement first = incremental.judge(0);

        assertThat(incremental.judge(Duration.ofSeconds(1).toNanos())).isSameAs(first);
    }

    /** The evidence as the ledger would list it, in an order of witnesses the judges must not depend on. */
    private static MeshEvidence evidence(
            Map<String, SelfReport> selfReports, Map<String, List<Streak>> streaks, Random random) {
        List<String> order = new ArrayList<>(streaks.keySet());
        order.addAll(selfReports.keySet());
        Collections.shuffle(order, random);
        List<SelfReport> reports = new ArrayList<>();
        List<Streak> paths = new ArrayList<>();
        for (String witness : order.stream().distinct().toList()) {
            SelfReport report = selfReports.get(witness);
            if (report != null) {
                reports.add(report);
            }
            paths.addAll(streaks.getOrDefault(witness, List.of()));
        }
        return new MeshEvidence(reports, paths, Set.of());
    }

    /** A random fleet of 1–7 servers on 1–3 routes and 1–9 witnesses of 1–3 sites. */
    private record Fleet(MeshFleet fleet, List<Witness> witnesses) {

        static Fleet random(Random random) {
            List<Server> servers = new ArrayList<>();
            int serverCount = 1 + random.nextInt(7);
            for (int i = 1; i <= serverCount; i++) {
                servers.add(new Server(
                        "s" + i,
                        "r" + random.nextInt(1 + random.nextInt(3)),
                        random.nextInt(3) == 0 ? List.of("main", "alt") : List.of("main")));
            }
            List<Witness> witnesses = new ArrayList<>();
            int witnessCount = 1 + random.nextInt(9);
            for (int i = 1; i <= witnessCount; i++) {
                String server = random.nextInt(5) == 0 ? null : "s" + (1 + random.nextInt(serverCount));
                witnesses.add(new Witness("w" + i, "site" + random.nextInt(3), server, random.nextInt(8) == 0));
            }
            return new Fleet(new MeshFleet(servers, witnesses), witnesses);
        }

        /**
         * This fleet as a reload may change it: a witness moved to another server (or none), made a checker or not,
         * moved to another site; or the last witness gone. Evidence of what changed stays, as the ledger keeps it.
         */
        Fleet changed(Random random) {
            List<Witness> next = new ArrayList<>(witnesses);
            int index = random.nextInt(next.size());
            Witness witness = next.get(index);
            switch (random.nextInt(4)) {
                case 0 ->
                    next.set(
                            index,
                            new Witness(
                                    witness.name(),
                                    witness.site(),
                                    random.nextInt(4) == 0
                                            ? null
                                            : fleet.servers()
                                                    .get(random.nextInt(
                                                            fleet.servers().size()))
                                                    .name(),
                                    witness.checker()));
                case 1 ->
                    next.set(index, new Witness(witness.name(), witness.site(), witness.server(), !witness.checker()));
                case 2 ->
                    next.set(
                            index,
                            new Witness(
                                    witness.name(), "site" + random.nextInt(3), witness.server(), witness.checker()));
                default -> {
                    if (next.size() > 1) {
                        next.remove(next.size() - 1);
                    }
                }
            }
            return new Fleet(new MeshFleet(fleet.servers(), next), next);
        }

        /**
         * What {@code witness} reports: a streak for most entry points of the fleet (sometimes its own server's, or an
         * entry point the fleet does not have), around the streak length; now and then one carried from a report
         * older than the others, as a restarted witness's ledger carries them.
         */
        List<Streak> paths(Witness witness, long now, MeshRules rules, Random random) {
            List<Streak> paths = new ArrayList<>();
            for (Server server : fleet.servers()) {
                List<String> entries = new ArrayList<>(server.entryPoints());
                if (random.nextInt(10) == 0) {
                    entries.add("gone");
                }
                for (String entry : entries) {
                    if (random.nextInt(6) == 0) {
                        continue;
                    }
                    int count = random.nextInt(rules.streak() + 2);
                    boolean failing = random.nextInt(3) == 0;
                    long received = random.nextInt(12) == 0
                            ? now - Duration.ofSeconds(25).toNanos()
                            : now;
                    paths.add(new Streak(
                            witness.name(), server.name(), entry, failing ? count : 0, failing ? 0 : count, received));
                }
            }
            return paths;
        }
    }
}
