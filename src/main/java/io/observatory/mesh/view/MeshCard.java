package io.observatory.mesh.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshEvidence;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * One server's card on the status page, {@code GET /status/api/mesh/<server>}: its status in the fleet monitor's
 * words with the reason, its entry points with their marks, every witness's path to it (who reaches it and who does
 * not, with streaks and RTTs), its own witness's paths to the other servers (which neighbours it reaches), its
 * metrics, and its last {@value MeshView#TRANSITIONS} transitions. Built on request from the one view, so the card and
 * the panel agree; about 200 bytes per path: 40 KB for a server of a 100-witness fleet.
 *
 * @param server      its line of the panel: status, reason, rotation, entry points with their marks, metrics
 * @param caption     its status in a few words, as the panel shows it
 * @param reachedBy   every witness's path to its entry points, by witness then entry point
 * @param reaches     the paths of the witnesses on it to the other servers, by witness then server
 * @param transitions its last transitions and those of its entry points, newest first
 */
@JsonNaming(SnakeCaseStrategy.class)
record MeshCard(
        MeshJson.Server server,
        String caption,
        List<Path> reachedBy,
        List<Path> reaches,
        List<MeshView.Transition> transitions) {

    /** The card of server {@code name}, or {@code null} when the fleet has no such server. */
    static @Nullable MeshCard of(MeshView view, String name) {
        MeshJudgement.ServerVerdict verdict = view.judgement().servers().stream()
                .filter(candidate -> candidate.name().equals(name))
                .findFirst()
                .orElse(null);
        MeshFleet.Server inFleet = view.fleet().servers().stream()
                .filter(candidate -> candidate.name().equals(name))
                .findFirst()
                .orElse(null);
        if (verdict == null || inFleet == null) {
            return null;
        }
        MeshJson.Server server = MeshJson.Server.of(view, verdict, inFleet);
        Set<String> witnessesOnIt = view.fleet().witnesses().stream()
                .filter(witness -> name.equals(witness.server()))
                .map(MeshFleet.Witness::name)
                .collect(Collectors.toSet());
        Set<MeshEvidence.Path> votes = view.judgement().votes();
        List<Path> reachedBy = new ArrayList<>();
        List<Path> reaches = new ArrayList<>();
        new TreeMap<>(view.streaks()).forEach((witness, streaks) -> {
            Instant at = view.lastReports().get(witness);
            if (at == null) {
                return;
            }
            for (PathStreak streak : streaks) {
                if (streak.server().equals(name)) {
                    reachedBy.add(Path.of(new MeshView.Path(witness, streak, at), votes));
                }
                if (witnessesOnIt.contains(witness)) {
                    reaches.add(Path.of(new MeshView.Path(witness, streak, at), votes));
                }
            }
        });
        reachedBy.sort(Comparator.comparing(Path::witness).thenComparing(Path::tag));
        reaches.sort(Comparator.comparing(Path::witness).thenComparing(Path::tag));
        List<MeshView.Transition> transitions =
                new ArrayList<>(view.transitions().getOrDefault(name, List.of()));
        Collections.reverse(transitions);
        return new MeshCard(server, MeshPage.caption(server), reachedBy, reaches, transitions);
    }

    /**
     * One witness's path to one entry point.
     *
     * @param witness   the witness
     * @param tag       the entry point, {@code <server>/<entry>}
     * @param reached   whether its last probe succeeded
     * @param vote      whether the hub counts the path as a vote against the entry point
     * @param failures  failed probes in a row
     * @param successes successful probes in a row
     * @param rttMicros the last probe's round-trip time, absent when it failed
     * @param error     the last probe's error, absent when it succeeded
     * @param reportTime when the hub received the report that carried it
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    record Path(
            String witness,
            String tag,
            boolean reached,
            boolean vote,
            int failures,
            int successes,
            @Nullable Long rttMicros,
            @Nullable String error,
            Instant reportTime) {

        static Path of(MeshView.Path path, Set<MeshEvidence.Path> votes) {
            LastProbe last = path.streak().last();
            return new Path(
                    path.witness(),
                    path.streak().server() + "/" + path.streak().entryPoint(),
                    last.success(),
                    votes.contains(new MeshEvidence.Path(
                            path.witness(),
                            path.streak().server(),
                            path.streak().entryPoint())),
                    path.streak().failures(),
                    path.streak().successes(),
                    last.success() ? last.rttNanos() / 1_000 : null,
                    last.success() ? null : last.error().isEmpty() ? String.valueOf(last.errorKind()) : last.error(),
                    path.reportTime());
        }
    }
}
