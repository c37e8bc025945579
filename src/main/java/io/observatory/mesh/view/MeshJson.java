package io.observatory.mesh.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.mesh.protocol.ServerMetrics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The {@code mesh} part of the {@code observatory} endpoint on a hub: every server with its status (upper-case, as
 * the mesh table names them), reason, rotation and entry-point marks; every witness with its standing. The status
 * page's mesh view carries it too.
 *
 * @param servers   in fleet order
 * @param witnesses in fleet order
 * @param routes    sorted by route
 */
@JsonNaming(SnakeCaseStrategy.class)
public record MeshJson(List<Server> servers, List<Witness> witnesses, List<Route> routes) {

    /** The servers, witnesses and routes of {@code view}; empty lists for a hub without a fleet. */
    public static MeshJson of(MeshView view) {
        Map<String, MeshFleet.Server> fleet = new HashMap<>();
        view.fleet().servers().forEach(server -> fleet.put(server.name(), server));
        List<Server> servers = new ArrayList<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            servers.add(Server.of(
                    view, verdict, Objects.requireNonNull(fleet.get(verdict.name()), "a verdict of the fleet")));
        }
        Map<String, MeshFleet.Witness> witnesses = new HashMap<>();
        view.fleet().witnesses().forEach(witness -> witnesses.put(witness.name(), witness));
        List<Witness> standings = view.judgement().witnesses().stream()
                .map((WitnessStanding standing) -> new Witness(
                        standing.name(),
                        standing.site(),
                        Objects.requireNonNull(witnesses.get(standing.name()), "a witness of the fleet")
                                .server(),
                        standing.checker(),
                        standing.reliable() ? "RELIABLE" : "UNRELIABLE",
                        standing.share(),
                        standing.neighbours(),
                        standing.reason().isEmpty() ? null : standing.reason(),
                        view.lastReports().get(standing.name())))
                .toList();
        List<Route> routes = view.judgement().routes().stream()
                .map(route -> new Route(route.route(), route.servers(), route.panic()))
                .toList();
        return new MeshJson(servers, standings, routes);
    }

    /**
     * One server: {@code status} is OK, SERVER_UNAVAILABLE, NO_DATA, UNREACHABLE_FROM_SERVERS or BLOCKED;
     * {@code voters} the witnesses whose votes decided UNREACHABLE_FROM_SERVERS(n) or BLOCKED, else 0;
     * {@code metrics} what its witness last reported of it, absent when it reported none.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    public record Server(
            String name,
            String route,
            String status,
            int voters,
            String reason,
            boolean inRotation,
            List<EntryPoint> entryPoints,
            @Nullable Metrics metrics) {

        /** The line of {@code server}, judged {@code verdict} in {@code view}. */
        static Server of(MeshView view, ServerVerdict verdict, MeshFleet.Server server) {
            List<EntryPoint> entryPoints = server.entryPoints().stream()
                    .map(entry -> {
                        PairCut cut = verdict.pairCuts().get(entry);
                        return new EntryPoint(
                                entry,
                                server.tag(entry),
                                cut == null ? List.of() : List.of("PAIR_CUT"),
                                cut == null ? null : "pair cut: " + cut.reason(),
                                cut == null ? null : cut.ranked());
                    })
                    .toList();
            return new Server(
                    verdict.name(),
                    verdict.route(),
                    verdict.status().name(),
                    verdict.voters(),
                    verdict.reason(),
                    verdict.inRotation(),
                    entryPoints,
                    Metrics.of(view.metrics().get(verdict.name())));
        }
    }

    /**
     * A server's metrics as its witness last reported them (see {@link ServerMetrics} for each value; a value the
     * witness could not read is absent; {@code extra} the series of a local exporter, each {@code name} and
     * {@code value}), {@code report_time} when the hub received them and {@code stale} when that
     * report is older than {@code no-data-after}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    public record Metrics(
            @Nullable Double cpuUsage,
            @Nullable Double load1,
            @Nullable Long memoryTotalBytes,
            @Nullable Long memoryAvailableBytes,
            @Nullable Long diskTotalBytes,
            @Nullable Long diskFreeBytes,
            @Nullable Double networkInBytesPerSecond,
            @Nullable Double networkOutBytesPerSecond,
            @Nullable Long tcpConnections,
            List<ServerMetrics.Extra> extra,
            Instant reportTime,
            boolean stale) {

        static @Nullable Metrics of(MeshView.@Nullable Metrics reported) {
            if (reported == null) {
                return null;
            }
            ServerMetrics values = reported.metrics();
            return new Metrics(
                    values.cpuUsage(),
                    values.load1(),
                    values.memoryTotalBytes(),
                    values.memoryAvailableBytes(),
                    values.diskTotalBytes(),
                    values.diskFreeBytes(),
                    values.networkInBytesPerSecond(),
                    values.networkOutBytesPerSecond(),
                    values.tcpConnections(),
                    values.extra(),
                    reported.reportTime(),
                    reported.stale());
        }
    }

    /**
     * One entry point: {@code marks} is empty or {@code [PAIR_CUT]}, with the reason naming both servers and whether
     * the mark ranks the server after unmarked ones ({@code ranked}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    public record EntryPoint(
            String name,
            String tag,
            List<String> marks,
            @Nullable String reason,
            @Nullable Boolean ranked) {}

    /** One witness: {@code status} is RELIABLE or UNRELIABLE, with the {@code reason} when unreliable; {@code share} 0-1. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    public record Witness(
            String name,
            String site,
            @Nullable String server,
            boolean checker,
            String status,
            double share,
            int neighbours,
            @Nullable String reason,
            @Nullable Instant lastReport) {}

    /** What one route serves, best first; {@code panic} when none of its servers is in rotation. */
    @JsonNaming(SnakeCaseStrategy.class)
    public record Route(String route, List<String> servers, boolean panic) {}
}
