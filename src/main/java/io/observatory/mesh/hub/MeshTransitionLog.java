package io.observatory.mesh.hub;

import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each mesh transition once at INFO with its reason: a server's status, an entry point's pair cut, a witness's
 * reliability, e.g. {@code server s4: ok -> unreachable_from_servers(2) (cannot reach s4/main: w1 (site de) streak 3,
 * w2 (site nl) streak 3)}. A change of reason alone (a streak growing) is not a transition.
 */
final class MeshTransitionLog {

    private static final Logger log = LoggerFactory.getLogger("io.observatory.mesh");

    /** Logs what changed from {@code before} to {@code after}; servers and witnesses new to the fleet count as changed. */
    void log(MeshJudgement before, MeshJudgement after) {
        Map<String, ServerVerdict> servers = new HashMap<>();
        before.servers().forEach(verdict -> servers.put(verdict.name(), verdict));
        for (ServerVerdict now : after.servers()) {
            ServerVerdict then = servers.get(now.name());
            String from = then == null ? "new" : MeshMarks.word(then);
            if (then == null || !from.equals(MeshMarks.word(now)) || then.inRotation() != now.inRotation()) {
                log.info(
                        "server {}: {} -> {}{}{}",
                        now.name(),
                        from,
                        MeshMarks.word(now),
                        now.reason().isEmpty() ? "" : " (" + now.reason() + ")",
                        now.inRotation() ? "" : ", out of rotation");
            }
            Map<String, PairCut> cutsBefore = then == null ? Map.of() : then.pairCuts();
            now.pairCuts().forEach((entryPoint, cut) -> {
                PairCut was = cutsBefore.get(entryPoint);
                if (was == null || was.ranked() != cut.ranked()) {
                    log.info(
                            "entry point {}/{}: pair cut ({}){}",
                            now.name(),
                            entryPoint,
                            cut.reason(),
                            cut.ranked() ? ", ranked after unmarked servers" : ", shown only: no counted vote");
                }
            });
            cutsBefore.keySet().stream()
                    .filter(entryPoint -> !now.pairCuts().containsKey(entryPoint))
                    .forEach(entryPoint -> log.info("entry point {}/{}: pair cut healed", now.name(), entryPoint));
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
    }

    private static String word(WitnessStanding standing) {
        return standing.reliable() ? "reliable" : "unreliable";
    }
}
