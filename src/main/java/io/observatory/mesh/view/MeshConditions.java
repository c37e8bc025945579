package io.observatory.mesh.view;

import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshEvidence.Path;
import io.observatory.mesh.judge.MeshFleet.Witness;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.mesh.judge.MeshStatus;
import io.observatory.snapshot.Condition;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.Condition.Vantage;
import io.observatory.snapshot.ConditionSource;
import io.observatory.snapshot.SnapshotPart;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bad states a hub's view shows, for incidents: a server {@code SERVER_UNAVAILABLE},
 * {@code UNREACHABLE_FROM_SERVERS}, {@code BLOCKED} (critical) or {@code NO_DATA} (a warning), an entry point's ranked
 * {@code PAIR_CUT} (a warning), a witness {@code WITNESS_UNRELIABLE} (a warning), a route served in {@code PANIC}
 * (critical). A verdict decided by votes carries its voters as evidence, each with its site and whether it is a
 * checker; a server's labels are its {@code route} and {@code server}.
 *
 * <p>A hub that has just started knows nothing of its witnesses yet, so every server is {@code NO_DATA} until their
 * first reports: until {@code no-data-after} has passed since the start, NO_DATA opens nothing and the view is not
 * {@link #settled}. Costs one pass over the servers, witnesses, routes and votes of the view.
 */
public final class MeshConditions implements ConditionSource<MeshView> {

    private final Instant startedAt;

    /** @param startedAt when this process started judging (wall clock) */
    public MeshConditions(Instant startedAt) {
        this.startedAt = startedAt;
    }

    @Override
    public SnapshotPart<MeshView> part() {
        return MeshView.PART;
    }

    @Override
    public boolean settled(MeshView view, Instant now) {
        return !now.isBefore(startedAt.plus(view.rules().noDataAfter()));
    }

    @Override
    public List<Condition> conditions(MeshView view, Instant now) {
        Map<String, Witness> witnesses = new HashMap<>();
        view.fleet().witnesses().forEach(witness -> witnesses.put(witness.name(), witness));
        Map<String, List<Path>> votes = new HashMap<>();
        view.judgement()
                .votes()
                .forEach(vote -> votes.computeIfAbsent(vote.server(), server -> new ArrayList<>())
                        .add(vote));
        boolean settled = settled(view, now);
        List<Condition> conditions = new ArrayList<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            Map<String, String> labels = Map.of("route", verdict.route(), "server", verdict.name());
            if (verdict.status() != MeshStatus.OK && (verdict.status() != MeshStatus.NO_DATA || settled)) {
                conditions.add(new Condition(
                        "server/" + verdict.name(),
                        verdict.status().name(),
                        verdict.status() == MeshStatus.NO_DATA ? Severity.WARNING : Severity.CRITICAL,
                        verdict.reason(),
                        labels,
                        voters(verdict, votes.getOrDefault(verdict.name(), List.of()), witnesses)));
            }
            verdict.pairCuts().forEach((entryPoint, cut) -> {
                if (cut.ranked()) {
                    conditions.add(pairCut(verdict, entryPoint, cut, votes, witnesses, labels));
                }
            });
        }
        for (WitnessStanding standing : view.judgement().witnesses()) {
            if (!standing.reliable()) {
                conditions.add(new Condition(
                        "witness/" + standing.name(),
                        "WITNESS_UNRELIABLE",
                        Severity.WARNING,
                        standing.reason(),
                        Map.of("site", standing.site()),
                        List.of()));
            }
        }
        for (RouteServing route : view.judgement().routes()) {
            if (route.panic()) {
                conditions.add(new Condition(
                        "route/" + route.route(),
                        "PANIC",
                        Severity.CRITICAL,
                        "no server of route " + route.route() + " is in rotation; serving "
                                + String.join(", ", route.servers()) + " anyway",
                        Map.of("route", route.route()),
                        List.of()));
            }
        }
        return conditions;
    }

    private static Condition pairCut(
            ServerVerdict verdict,
            String entryPoint,
            PairCut cut,
            Map<String, List<Path>> votes,
            Map<String, Witness> witnesses,
            Map<String, String> labels) {
        List<Path> against = votes.getOrDefault(verdict.name(), List.of()).stream()
                .filter(vote -> vote.entryPoint().equals(entryPoint))
                .toList();
        return new Condition(
                "entry-point/" + verdict.name() + "/" + entryPoint,
                "PAIR_CUT",
                Severity.WARNING,
                cut.reason(),
                labels,
                vantages(against, witnesses));
    }

    /**
     * Who decided {@code verdict}: for a BLOCKED server its checkers, for UNREACHABLE_FROM_SERVERS every witness
     * voting against it; nobody for the other statuses (a self-check, silence).
     */
    private static List<Vantage> voters(ServerVerdict verdict, List<Path> against, Map<String, Witness> witnesses) {
        return switch (verdict.status()) {
            case BLOCKED ->
                vantages(
                        against.stream()
                                .filter(vote -> {
                                    Witness witness = witnesses.get(vote.witness());
                                    return witness != null && witness.checker();
                                })
                                .toList(),
                        witnesses);
            case UNREACHABLE_FROM_SERVERS -> vantages(against, witnesses);
            default -> List.of();
        };
    }

    /** One vantage per vote, by witness then entry point. */
    private static List<Vantage> vantages(List<Path> votes, Map<String, Witness> witnesses) {
        return votes.stream()
                .sorted(Comparator.comparing(Path::witness).thenComparing(Path::entryPoint))
                .map(vote -> {
                    Witness witness = witnesses.get(vote.witness());
                    return new Vantage(
                            vote.witness(),
                            witness == null ? "" : witness.site(),
                            witness != null && witness.checker(),
                            "cannot reach " + vote.server() + "/" + vote.entryPoint());
                })
                .toList();
    }
}
