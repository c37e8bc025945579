package io.observatory.mesh.view;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What changed in the mesh page from one {@code mesh} event of the live stream to the next, for a panel that holds
 * the former ({@link MeshPage}): the servers, witnesses, routes and cells that changed, each whole, and the cells that
 * went. The fleet is the same in both (else the event is the whole page), so no server, witness or route comes or
 * goes, and the panel keeps them in fleet order. What one change sends does not grow with the fleet: a server's
 * verdict is its line (and its route when its rotation moved), a witness's report its line and the cells it changed,
 * at most one per entry point it probes (and none when the matrix is not drawn).
 *
 * @param changes     always {@code true}: the event holds changes, not the whole page
 * @param now         the hub's wall clock, unix milliseconds
 * @param servers     the servers whose line changed, in fleet order
 * @param witnesses   the witnesses whose line (site, server, checker, standing, last report) or staleness changed, in
 *                    fleet order
 * @param routes      the routes whose servers or panic changed
 * @param captions    the caption of each server in {@code servers}
 * @param stale       those of {@code witnesses} that are stale now; the others are not
 * @param cells       the cells new or changed; none when the matrix is not drawn
 * @param removedCells the cells that went, e.g. when a witness's report no longer carries a path
 * @param matrixCells how many cells the matrix has, drawn or not
 */
@JsonNaming(SnakeCaseStrategy.class)
record MeshPageChanges(
        boolean changes,
        long now,
        List<MeshJson.Server> servers,
        List<MeshJson.Witness> witnesses,
        List<MeshJson.Route> routes,
        Map<String, String> captions,
        List<String> stale,
        List<MeshPage.Cell> cells,
        List<CellKey> removedCells,
        int matrixCells) {

    /**
     * What takes a page holding {@code before} to {@code after}, or {@code null} when it has to take {@code after}
     * whole: the fleet changed (a server, its entry points, a witness or a route came, went or moved; the hub stopped
     * being one), the streak, or whether the matrix is drawn. O(servers + witnesses + routes + cells drawn)
     * comparisons of records.
     */
    static @Nullable MeshPageChanges of(MeshPage before, MeshPage after) {
        MeshJson was = before.view();
        MeshJson is = after.view();
        if (before.streak() != after.streak()
                || before.matrixDrawn() != after.matrixDrawn()
                || !names(was.servers(), MeshPageChanges::columns).equals(names(is.servers(), MeshPageChanges::columns))
                || !names(was.witnesses(), MeshJson.Witness::name).equals(names(is.witnesses(), MeshJson.Witness::name))
                || !names(was.routes(), MeshJson.Route::route).equals(names(is.routes(), MeshJson.Route::route))) {
            return null;
        }
        List<MeshJson.Server> servers = changed(was.servers(), is.servers(), server -> false);
        Map<String, String> captions = new LinkedHashMap<>();
        servers.forEach(server -> captions.put(
                server.name(), Objects.requireNonNull(after.captions().get(server.name()))));
        Set<String> staleBefore = new HashSet<>(before.stale());
        Set<String> staleAfter = new HashSet<>(after.stale());
        List<MeshJson.Witness> witnesses = changed(
                was.witnesses(),
                is.witnesses(),
                witness -> staleAfter.contains(witness.name()) != staleBefore.contains(witness.name()));
        List<String> stale = witnesses.stream()
                .map(MeshJson.Witness::name)
                .filter(staleAfter::contains)
                .toList();
        List<MeshJson.Route> routes = changed(was.routes(), is.routes(), route -> false);
        Map<CellKey, MeshPage.Cell> gone = new HashMap<>();
        before.cells().forEach(cell -> gone.put(CellKey.of(cell), cell));
        List<MeshPage.Cell> cells = new ArrayList<>();
        for (MeshPage.Cell cell : after.cells()) {
            if (!cell.equals(gone.remove(CellKey.of(cell)))) {
                cells.add(cell);
            }
        }
        List<CellKey> removed = before.cells().stream()
                .map(CellKey::of)
                .filter(gone::containsKey)
                .toList();
        return new MeshPageChanges(
                true, after.now(), servers, witnesses, routes, captions, stale, cells, removed, after.matrixCells());
    }

    /**
     * The items of {@code is} that differ from the item of {@code was} at their place (the same name, as the fleet is
     * the same), or for which {@code also} holds; in order.
     */
    private static <T> List<T> changed(List<T> was, List<T> is, Predicate<T> also) {
        List<T> changed = new ArrayList<>();
        for (int i = 0; i < is.size(); i++) {
            if (!is.get(i).equals(was.get(i)) || also.test(is.get(i))) {
                changed.add(is.get(i));
            }
        }
        return changed;
    }

    /** A server's name and its entry points' tags: the matrix's columns it draws. */
    private static String columns(MeshJson.Server server) {
        StringBuilder columns = new StringBuilder(server.name());
        server.entryPoints().forEach(entry -> columns.append(' ').append(entry.tag()));
        return columns.toString();
    }

    private static <T> List<String> names(List<T> items, Function<T, String> name) {
        return items.stream().map(name).toList();
    }

    /**
     * A cell of the matrix by name.
     *
     * @param witness the witness
     * @param tag     the entry point, {@code <server>/<entry>}
     */
    @JsonNaming(SnakeCaseStrategy.class)
    record CellKey(String witness, String tag) {

        static CellKey of(MeshPage.Cell cell) {
            return new CellKey(cell.witness(), cell.tag());
        }
    }
}
