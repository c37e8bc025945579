package io.observatory.mesh.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshEvidence;
import io.observatory.mesh.judge.MeshRules;
import io.observatory.mesh.protocol.LastProbe;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A hub's mesh as the status page shows it: the body of {@code GET /status/api/mesh} and the data of the first
 * {@code mesh} event of the live stream, whose later ones carry what changed ({@link MeshPageChanges}). It is the
 * {@code mesh} part of {@code /actuator/observatory} ({@link MeshJson}: servers, witnesses, routes with their panic
 * flag) plus what the page draws: a caption per server in the fleet monitor's words, the witnesses whose last report
 * is older than {@code no-data-after} ({@code stale}), and the witness × entry point matrix, each cell with the
 * witness's streaks against the entry point and whether the hub counts it as a vote. About 100 bytes per cell (plus
 * its error's reason while it fails) and 200 per server and witness: about 1 MB for 100 witnesses of 100 servers,
 * which is why the stream sends it whole once and then, at most once a second, what changed. A matrix of more than
 * {@value #MATRIX_MAX_CELLS} cells (a million at 1,000 × 1,000) is left out, its size said in {@code matrixCells}:
 * no page draws it readably, and each server's card ({@code GET /status/api/mesh/<server>}) has its rows and column.
 *
 * @param now      the hub's wall clock, unix milliseconds
 * @param streak   failed probes in a row that make a vote ({@code observatory.mesh.hub.streak})
 * @param view     servers, witnesses and routes
 * @param captions per server, what it is in a few words: {@code ok}, {@code server unavailable},
 *                 {@code unreachable from your servers (3 of them)}, {@code blocked by a checker},
 *                 {@code no data — agent not responding}, or for an OK server with a pair cut
 *                 {@code pair cut — unreachable from some of your servers}, or {@code ok (marked by an unreliable
 *                 witness)} when no mark ranks it
 * @param stale    the witnesses that have not reported within {@code no-data-after} (or never have), in fleet order
 * @param cells    what each witness last reported about each entry point it probes, by witness then entry point;
 *                 empty when the matrix is not drawn
 * @param matrixCells how many cells the matrix has, drawn or not
 * @param matrixDrawn whether {@code cells} has them: {@code false} from {@value #MATRIX_MAX_CELLS} cells on
 */
@JsonNaming(SnakeCaseStrategy.class)
record MeshPage(
        long now,
        int streak,
        @JsonUnwrapped MeshJson view,
        Map<String, String> captions,
        List<String> stale,
        List<Cell> cells,
        int matrixCells,
        boolean matrixDrawn) {

    /** The largest matrix the page draws: a 100-server fleet's with 100 witnesses. */
    static final int MATRIX_MAX_CELLS = 10_000;

    /** The page's view of {@code view}, under the rules it was judged by, at {@code now}. */
    static MeshPage of(MeshView view, Instant now) {
        MeshRules rules = view.rules();
        MeshJson json = MeshJson.of(view);
        Map<String, String> captions = new LinkedHashMap<>();
        json.servers().forEach(server -> captions.put(server.name(), caption(server)));
        List<String> stale = json.witnesses().stream()
                .filter(witness -> witness.lastReport() == null
                        || witness.lastReport().plus(rules.noDataAfter()).isBefore(now))
                .map(MeshJson.Witness::name)
                .toList();
        Set<MeshEvidence.Path> votes = view.judgement().votes();
        int matrixCells = view.streaks().values().stream().mapToInt(List::size).sum();
        boolean drawn = matrixCells <= MATRIX_MAX_CELLS;
        List<Cell> cells = !drawn
                ? List.of()
                : view.paths().stream()
                        .map(path -> {
                            LastProbe last = path.streak().last();
                            return new Cell(
                                    path.witness(),
                                    path.streak().server() + "/" + path.streak().entryPoint(),
                                    path.streak().failures(),
                                    path.streak().successes(),
                                    votes.contains(new MeshEvidence.Path(
                                            path.witness(),
                                            path.streak().server(),
                                            path.streak().entryPoint())),
                                    last.success(),
                                    last.errorKind() == null
                                            ? null
                                            : last.errorKind().label(),
                                    last.error().isEmpty() ? null : last.error(),
                                    last.success() ? last.rttNanos() / 1_000 : null,
                                    path.reportTime().toEpochMilli());
                        })
                        .toList();
        return new MeshPage(now.toEpochMilli(), rules.streak(), json, captions, stale, cells, matrixCells, drawn);
    }

    /** A server's caption, in the words of a fleet monitor's operator. */
    static String caption(MeshJson.Server server) {
        return switch (server.status()) {
            case "SERVER_UNAVAILABLE" -> "server unavailable";
            case "UNREACHABLE_FROM_SERVERS" -> "unreachable from your servers (" + server.voters() + " of them)";
            case "BLOCKED" ->
                server.inRotation()
                        ? "blocked by a checker — kept: its route has no other server"
                        : "blocked by a checker";
            case "NO_DATA" -> "no data — agent not responding";
            default ->
                server.entryPoints().stream().anyMatch(entry -> Boolean.TRUE.equals(entry.ranked()))
                        ? "pair cut — unreachable from some of your servers"
                        : server.entryPoints().stream()
                                        .anyMatch(entry -> !entry.marks().isEmpty())
                                ? "ok (marked by an unreliable witness)"
                                : "ok";
        };
    }

    /**
     * One cell of the matrix.
     *
     * @param witness    the witness
     * @param tag        the entry point, {@code <server>/<entry>}
     * @param failures   failed probes in a row, 0 after a success
     * @param successes  successful probes in a row, 0 after a failure
     * @param vote       whether the hub counts the path as a vote: from {@code streak} failures in a row until
     *                   {@code streak} successes in a row
     * @param success    whether its last probe succeeded
     * @param errorKind  the last probe's error kind, absent on success
     * @param error      the last probe's error, absent on success
     * @param rttMicros  the last probe's round-trip time in microseconds, absent on failure
     * @param reportTime when the hub received the report that carried it, unix milliseconds
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(SnakeCaseStrategy.class)
    record Cell(
            String witness,
            String tag,
            int failures,
            int successes,
            boolean vote,
            boolean success,
            @Nullable String errorKind,
            @Nullable String error,
            @Nullable Long rttMicros,
            long reportTime) {}
}
