package io.observatory.mesh.hub;

import com.google.common.primitives.Ints;
import io.observatory.mesh.judge.MeshEvidence;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.mesh.protocol.ServerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The hub's record of what each witness reported last, as {@link MeshEvidence} for the verdict. A report is the
 * witness's whole current state (its self-check result and, per entry point it probes, its failure streak), so
 * reports are idempotent and a lost one is repaired by the next: the ledger keeps, per witness, the newest report by
 * (start of the witness's process, sequence number) and ignores a duplicated, reordered or late one. A report of
 * another process than the held one's is also taken once the held one is older than {@code staleAfter}: a witness
 * whose clock stepped back across a restart (or that once reported a start in the future) is not frozen out. Identity
 * comes from the caller (the hub decides it from the credential), never from the report.
 *
 * <p>A witness's restart is no evidence that a path healed: only a successful probe resets a streak. When a report
 * of a new process replaces one that was not stale yet, the streaks of the old process are carried: each stands as it
 * was while the new process has not probed its entry point yet, for at most {@code staleAfter} after the report it
 * came from, and a failing one is added to the new process's streak of the same entry point until that one shows a
 * success (it is 0, or smaller than in the report before). Without it every vote of a witness would vanish when it
 * restarts (a rollout of witnesses restarts them all), and the servers they vote against would come back into
 * rotation until their streaks built up again; and a new process that had probed only the failing neighbour yet
 * would look unreliable (voting against all of the neighbours it probes).
 *
 * <p>Not thread-safe: confined to the writer. Costs per witness one report of at most one streak per entry point of
 * the fleet (about 40 bytes each): 100 witnesses of a 100-server fleet hold 10,000 streaks; a restarted witness holds
 * its old streaks once more until its new process probed their entry points (and, for a failing one, until a
 * success).
 */
public final class MeshLedger {

    /** What {@link #record} did with a report. */
    public enum Outcome {
        /** Newer than what the ledger held: it is now the witness's state. */
        ACCEPTED,
        /** Not newer than what the ledger holds (a duplicate, reordered or late report): nothing changed. */
        IGNORED_OLD,
        /** From a witness that is not in the fleet: not stored. */
        REFUSED_UNKNOWN_WITNESS
    }

    /**
     * One report, as the witness sent it.
     *
     * @param processStartMillis when the witness's process started (its own wall clock): a restarted witness begins
     *                           its sequence again
     * @param sequence           the report's number within that process, increasing
     * @param failingCheck       the first of its own server's local checks that fails, or {@code null} when all pass
     *                           (or the witness runs on no server)
     * @param streaks            per entry point it probes, its consecutive failed and successful probes
     * @param metrics            its reading of its own server, {@link ServerMetrics#NONE} when it sent none
     */
    public record Report(
            long processStartMillis,
            long sequence,
            @Nullable String failingCheck,
            List<PathStreak> streaks,
            ServerMetrics metrics) {

        public Report {
            streaks = List.copyOf(streaks);
            Objects.requireNonNull(metrics, "metrics");
        }

        /** A report without metrics. */
        public Report(long processStartMillis, long sequence, @Nullable String failingCheck, List<PathStreak> streaks) {
            this(processStartMillis, sequence, failingCheck, streaks, ServerMetrics.NONE);
        }

        /** This report with {@code streaks} instead of its own. */
        Report withStreaks(List<PathStreak> replaced) {
            return new Report(processStartMillis, sequence, failingCheck, replaced, metrics);
        }
    }

    /**
     * A report the ledger holds.
     *
     * @param report          the report, with only the streaks that name entry points of the fleet, and with the
     *                        streaks carried over from the witness's previous process (see the class comment)
     * @param receivedAtNanos when the hub received it, on the writer's ticker
     * @param carriedAtNanos  by entry point ({@code server/entry}), the receive time of a carried streak that the
     *                        new process has not probed yet: the report it came from
     */
    public record Received(Report report, long receivedAtNanos, Map<String, Long> carriedAtNanos) {

        public Received {
            carriedAtNanos = Map.copyOf(carriedAtNanos);
        }

        /** When the hub received the report behind {@code streak}, one of {@link #report}'s. */
        public long receivedAtNanos(PathStreak streak) {
            return carriedAtNanos.getOrDefault(tag(streak), receivedAtNanos);
        }
    }

    /**
     * A streak of a witness's previous process, carried over to its new process.
     *
     * @param before        the previous process's streak of the entry point, as last reported
     * @param beforeAtNanos when the hub received that report
     * @param lastSeen      the new process's streak in its last report, 0 before it probed the entry point
     */
    private record Carry(PathStreak before, long beforeAtNanos, int lastSeen) {

        int failures() {
            return before.failures();
        }
    }

    private final Map<String, Received> held = new HashMap<>();
    private final Map<String, Map<String, Carry>> carries = new HashMap<>();
    private Set<String> witnesses;
    // By server name, the fleet's own strings: the server's name and each entry point's. A kept streak names them,
    // not the strings of the report it came in, so the ledger holds one copy of each name however many reports.
    private Map<String, FleetNames> names;
    private long staleAfterNanos;

    /**
     * @param fleet      the witnesses whose reports are taken and the entry points their streaks may name
     * @param staleAfter how old a held report must be before a report of another process replaces it whatever the
     *                   order of their process starts ({@code no-data-after})
     */
    public MeshLedger(MeshFleet fleet, Duration staleAfter) {
        this.witnesses = witnessNames(fleet);
        this.names = names(fleet);
        this.staleAfterNanos = staleAfter.toNanos();
    }

    /**
     * Takes {@code report} from {@code witness} unless the ledger holds a report of it that is as new or newer.
     *
     * @param witness         the witness, as the hub identified the caller
     * @param receivedAtNanos when the hub received it, on the writer's ticker
     */
    public Outcome record(String witness, Report report, long receivedAtNanos) {
        if (!witnesses.contains(witness)) {
            return Outcome.REFUSED_UNKNOWN_WITNESS;
        }
        Received current = held.get(witness);
        if (current != null
                && !isNewer(report, current.report())
                && !(report.processStartMillis() != current.report().processStartMillis()
                        && receivedAtNanos - current.receivedAtNanos() > staleAfterNanos)) {
            return Outcome.IGNORED_OLD;
        }
        Report taken = inFleet(report);
        if (current != null && current.report().processStartMillis() != taken.processStartMillis()) {
            restarted(witness, current, receivedAtNanos);
        }
        held.put(witness, withCarries(witness, taken, receivedAtNanos));
        return Outcome.ACCEPTED;
    }

    /** Keeps the streaks of {@code witness}'s previous process, unless its last report is stale. */
    private void restarted(String witness, Received previous, long nowNanos) {
        Map<String, Carry> carried = new HashMap<>();
        if (nowNanos - previous.receivedAtNanos() <= staleAfterNanos) {
            previous.report()
                    .streaks()
                    .forEach(
                            streak -> carried.put(tag(streak), new Carry(streak, previous.receivedAtNanos(streak), 0)));
        }
        carries.put(witness, carried);
    }

    /** {@code report} with {@code witness}'s carried streaks added; carries that were reset or went stale end. */
    private Received withCarries(String witness, Report report, long nowNanos) {
        Map<String, Carry> carried = carries.get(witness);
        if (carried == null) {
            return new Received(report, nowNanos, Map.of());
        }
        List<PathStreak> streaks = new ArrayList<>(report.streaks().size() + carried.size());
        Set<String> probed = new HashSet<>();
        for (PathStreak streak : report.streaks()) {
            String tag = tag(streak);
            probed.add(tag);
            Carry carry = carried.get(tag);
            if (carry == null
                    || carry.failures() == 0
                    || streak.failures() == 0
                    || streak.failures() < carry.lastSeen()) {
                carried.remove(tag);
                streaks.add(streak);
            } else {
                carried.put(tag, new Carry(carry.before(), carry.beforeAtNanos(), streak.failures()));
                streaks.add(new PathStreak(
                        streak.server(),
                        streak.entryPoint(),
                        Ints.saturatedCast((long) carry.failures() + streak.failures()),
                        streak.successes(),
                        streak.last()));
            }
        }
        Map<String, Long> carriedAt = new HashMap<>();
        carried.values()
                .removeIf(carry ->
                        !probed.contains(tag(carry.before())) && nowNanos - carry.beforeAtNanos() > staleAfterNanos);
        carried.forEach((tag, carry) -> {
            if (!probed.contains(tag)) {
                streaks.add(carry.before());
                carriedAt.put(tag, carry.beforeAtNanos());
            }
        });
        if (carried.isEmpty()) {
            carries.remove(witness);
        }
        return new Received(report.withStreaks(streaks), nowNanos, carriedAt);
    }

    /**
     * Follows a new fleet: forgets the reports of witnesses that left it; streaks of removed entry points go too.
     *
     * @param staleAfter the new {@code no-data-after}
     */
    public void fleetChanged(MeshFleet fleet, Duration staleAfter) {
        staleAfterNanos = staleAfter.toNanos();
        witnesses = witnessNames(fleet);
        names = names(fleet);
        held.keySet().retainAll(witnesses);
        held.replaceAll((witness, entry) ->
                new Received(inFleet(entry.report()), entry.receivedAtNanos(), entry.carriedAtNanos()));
        carries.keySet().retainAll(witnesses);
        Set<String> entryPoints = entryPointTags(fleet);
        carries.values().forEach(carried -> carried.keySet().retainAll(entryPoints));
    }

    /** The report held for each witness that reported, by witness name; a read-only view. */
    public Map<String, Received> reports() {
        return Collections.unmodifiableMap(held);
    }

    /** The latest self-report of every witness that reported, and its streaks: O(paths). */
    public MeshEvidence evidence() {
        List<MeshEvidence.SelfReport> selfReports = new ArrayList<>(held.size());
        List<MeshEvidence.Streak> streaks = new ArrayList<>();
        held.forEach((witness, entry) -> {
            selfReports.add(selfReport(witness, entry));
            streaks.addAll(streaks(witness, entry));
        });
        return new MeshEvidence(selfReports, streaks);
    }

    /** What {@code witness}'s held report says of its own server. */
    static MeshEvidence.SelfReport selfReport(String witness, Received entry) {
        return new MeshEvidence.SelfReport(
                witness, entry.receivedAtNanos(), entry.report().failingCheck());
    }

    /** The streaks of {@code witness}'s held report, each with the receive time of the report behind it. */
    static List<MeshEvidence.Streak> streaks(String witness, Received entry) {
        List<MeshEvidence.Streak> streaks =
                new ArrayList<>(entry.report().streaks().size());
        entry.report()
                .streaks()
                .forEach(streak -> streaks.add(new MeshEvidence.Streak(
                        witness,
                        streak.server(),
                        streak.entryPoint(),
                        streak.failures(),
                        streak.successes(),
                        entry.receivedAtNanos(streak))));
        return streaks;
    }

    /**
     * {@code report} with only the streaks that name entry points of the fleet, naming them with the fleet's strings:
     * what a report may make the hub hold. One map lookup per streak and entry point, no string built.
     */
    @SuppressWarnings("ReferenceEquality") // already the fleet's own strings: the streak is kept as it is
    private Report inFleet(Report report) {
        List<PathStreak> kept = new ArrayList<>(report.streaks().size());
        boolean same = true;
        for (PathStreak streak : report.streaks()) {
            FleetNames server = names.get(streak.server());
            String entry = server == null ? null : server.entries().get(streak.entryPoint());
            if (server == null || entry == null) {
                same = false;
            } else if (streak.server() == server.name() && streak.entryPoint() == entry) {
                kept.add(streak);
            } else {
                same = false;
                kept.add(new PathStreak(server.name(), entry, streak.failures(), streak.successes(), streak.last()));
            }
        }
        return same ? report : report.withStreaks(kept);
    }

    /** A server's name and its entry points' names, as the fleet spells them. */
    private record FleetNames(String name, Map<String, String> entries) {}

    private static Map<String, FleetNames> names(MeshFleet fleet) {
        Map<String, FleetNames> names = new HashMap<>();
        fleet.servers().forEach(server -> {
            Map<String, String> entries = new HashMap<>();
            server.entryPoints().forEach(entry -> entries.put(entry, entry));
            names.put(server.name(), new FleetNames(server.name(), entries));
        });
        return names;
    }

    private static String tag(PathStreak streak) {
        return streak.server() + "/" + streak.entryPoint();
    }

    private static boolean isNewer(Report candidate, Report current) {
        return candidate.processStartMillis() != current.processStartMillis()
                ? candidate.processStartMillis() > current.processStartMillis()
                : candidate.sequence() > current.sequence();
    }

    private static Set<String> witnessNames(MeshFleet fleet) {
        Set<String> names = new HashSet<>();
        fleet.witnesses().forEach(witness -> names.add(witness.name()));
        return names;
    }

    private static Set<String> entryPointTags(MeshFleet fleet) {
        Set<String> tags = new HashSet<>();
        fleet.servers().forEach(server -> server.entryPoints().forEach(entry -> tags.add(server.tag(entry))));
        return tags;
    }
}
