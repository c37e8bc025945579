package io.observatory.mesh.hub;

import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each mesh transition once at INFO with its reason: a server's status, an entry point's pair cut, a witness's
 * reliability, e.g. {@code server s4: ok -> unreachable_from_servers(2) (cannot reach s4/main: w1 (site de) streak 3,
 * w2 (site nl) streak 3)}. A change of reason alone (a streak growing) is not a transition. Returns each server's
 * transitions in the same words, for its card.
 */
final class MeshTransitionLog {

    private static final Logger log = LoggerFactory.getLogger("io.observatory.mesh");

    /**
     * Logs what changed from {@code before} to {@code after}; servers and witnesses new to the fleet count as changed.
     *
     * @return by server, its transitions and those of its entry points, as logged but without the subject, e.g.
     *     {@code ok -> blocked(1) (checker cannot reach s4/main: w1 (site de) streak 3), out of rotation} or
     *     {@code main: pair cut healed}
     */
    Map<String, List<String>> log(MeshJudgement before, MeshJudgement after) {
        Map<String, List<String>> changes = new HashMap<>();
        Map<String, ServerVerdict> servers = new HashMap<>();
        before.servers().forEach(verdict -> servers.put(verdict.name(), verdict));
        for (ServerVerdict now : after.servers()) {
            ServerVerdict then = servers.get(now.name());
            String from = then == null ? "new" : MeshMarks.word(then);
            if (then == null || !from.equals(MeshMarks.word(now)) || then.inRotation() != now.inRotation()) {
                change(
                        changes,
                        now.name(),
                        "server " + now.name() + ": ",
                        from + " -> " + MeshMarks.word(now)
                                + (now.reason().isEmpty() ? "" : " (" + now.reason() + ")")
                                + (now.inRotation() ? "" : ", out of rotation"));
            }
            Map<String, PairCut> cutsBefore = then == null ? Map.of() : then.pairCuts();
            now.pairCuts().forEach((entryPoint, cut) -> {
                PairCut was = cutsBefore.get(entryPoint);
                if (was == null || was.ranked() != cut.ranked()) {
                    change(
                            changes,
                            now.name(),
                            "entry point " + now.name() + "/",
                            entryPoint + ": pair cut ("
                                    + cut.reason() + ")"
                                    + (cut.ranked()
                                            ? ", ranked after unmarked servers"
                                            : ", shown only: no counted vote"));
                }
            });
            cutsBefore.keySet().stream()
                    .filter(entryPoint -> !now.pairCuts().containsKey(entryPoint))
                    .forEach(entryPoint -> change(
                            changes, now.name(), "entry point " + now.name() + "/", entryPoint + ": pair cut healed"));
        }
        Map<String, WitnessStanding> witnesses = new HashMap<>();
        before.witnesses().forEach(standing -> witnesses.put(standing.name(), standing));
        for (WitnessStanding now : after.witnesses()) {
            WitnessStanding then = witnesses.get(now.name());
            if ((then == null && !now.reliable()) || (then != null && then.reliable() != now.reliable())) {
                log.info(
                        "witness {}: {} -> {} (votes against {} of the {} neighbours it probes){}",
                        now.name(),
                        then == null ? "new" : word(then),
                        word(now),
                        String.format(Locale.ROOT, "%.0f%%", now.share() * 100),
                        now.neighbours(),
                        now.reliable() ? "" : ": " + now.reason() + "; its votes mark, and remove nobody");
            }
        }
        return changes;
    }

    /** Logs {@code subject + change} and keeps {@code change} for {@code server}. */
    private static void change(Map<String, List<String>> changes, String server, String subject, String change) {
        log.info("{}{}", subject, change);
        changes.computeIfAbsent(server, s -> new ArrayList<>()).add(change);
    }

    private static String word(WitnessStanding standing) {
        return standing.reliable() ? "reliable" : "unreliable";
    }
}
