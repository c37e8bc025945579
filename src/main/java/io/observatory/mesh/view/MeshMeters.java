package io.observatory.mesh.view;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.snapshot.ObservationStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The mesh's gauges on a hub, registered and removed as servers and witnesses come and go (on the writer), values
 * read from the current view at each scrape; no per-pair series:
 * <ul>
 *   <li>{@value #SERVER_STATUS} (tags {@code server}, {@code route}): 0 OK, 1 NO_DATA, 2 BLOCKED,
 *       3 UNREACHABLE_FROM_SERVERS, 4 SERVER_UNAVAILABLE (the route's preference order);
 *   <li>{@value #SERVER_IN_ROTATION} (tags {@code server}, {@code route}): 1 in rotation, 0 not;
 *   <li>{@value #WITNESS_RELIABLE} (tags {@code witness}, {@code site}): 1 reliable, 0 unreliable;
 *   <li>{@value #WITNESS_SHARE} (tags {@code witness}, {@code site}): the share of its neighbours it votes against;
 *   <li>{@value #ROUTE_PANIC} (tag {@code route}): 1 when none of the route's servers is in rotation and the
 *       best-ranked are served anyway, 0 when not.
 * </ul>
 * Costs two gauges per server, two per witness and one per route: 410 for 100 servers, 100 witnesses and 10 routes.
 */
@Component
class MeshMeters {

    /** Prometheus shows {@code observatory_mesh_server_status}. */
    static final String SERVER_STATUS = "observatory.mesh.server.status";
    /** Prometheus shows {@code observatory_mesh_server_in_rotation}. */
    static final String SERVER_IN_ROTATION = "observatory.mesh.server.in.rotation";
    /** Prometheus shows {@code observatory_mesh_witness_reliable}. */
    static final String WITNESS_RELIABLE = "observatory.mesh.witness.reliable";
    /** Prometheus shows {@code observatory_mesh_witness_share}. */
    static final String WITNESS_SHARE = "observatory.mesh.witness.share";
    /** Prometheus shows {@code observatory_mesh_route_panic}. */
    static final String ROUTE_PANIC = "observatory.mesh.route.panic";

    private final ObservationStore store;
    private final MeterRegistry registry;
    // Confined to the writer.
    private final Map<String, List<Meter>> servers = new HashMap<>();
    private final Map<String, List<Meter>> witnesses = new HashMap<>();
    private final Map<String, List<Meter>> routes = new HashMap<>();

    MeshMeters(ObservationStore store, MeterRegistry registry) {
        this.store = store;
        this.registry = registry;
        store.watchPart(MeshView.PART, this::follow);
    }

    @SuppressWarnings("EnumOrdinal") // the status gauge is documented by MeshStatus's order, best to worst
    private void follow(MeshView view) {
        Set<String> serverKeys = new HashSet<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            String name = verdict.name();
            String route = verdict.route();
            String key = name + "\n" + route;
            serverKeys.add(key);
            servers.computeIfAbsent(
                    key,
                    unused -> List.of(
                            gauge(
                                    SERVER_STATUS,
                                    "Mesh status of the server: 0 OK, 1 NO_DATA, 2 BLOCKED, 3"
                                            + " UNREACHABLE_FROM_SERVERS, 4 SERVER_UNAVAILABLE",
                                    Tags.of("server", name, "route", route),
                                    now -> orNaN(
                                            server(now, name),
                                            found -> found.status().ordinal())),
                            gauge(
                                    SERVER_IN_ROTATION,
                                    "Whether clients of its route may be given the server",
                                    Tags.of("server", name, "route", route),
                                    now -> orNaN(server(now, name), found -> found.inRotation() ? 1 : 0))));
        }
        Set<String> witnessKeys = new HashSet<>();
        for (WitnessStanding standing : view.judgement().witnesses()) {
            String name = standing.name();
            String key = name + "\n" + standing.site();
            witnessKeys.add(key);
            witnesses.computeIfAbsent(
                    key,
                    unused -> List.of(
                            gauge(
                                    WITNESS_RELIABLE,
                                    "Whether the witness's votes count: 1 reliable, 0 unreliable",
                                    Tags.of("witness", name, "site", standing.site()),
                                    now -> orNaN(witness(now, name), found -> found.reliable() ? 1 : 0)),
                            gauge(
                                    WITNESS_SHARE,
                                    "Share of the neighbours it probes that the witness votes against, 0-1",
                                    Tags.of("witness", name, "site", standing.site()),
                                    now -> orNaN(witness(now, name), found -> found.share()))));
        }
        Set<String> routeKeys = new HashSet<>();
        for (RouteServing serving : view.judgement().routes()) {
            String route = serving.route();
            routeKeys.add(route);
            routes.computeIfAbsent(
                    route,
                    unused -> List.of(gauge(
                            ROUTE_PANIC,
                            "1 when none of the route's servers"
                                    + " is in rotation and the best-ranked are served anyway, 0 when not",
                            Tags.of("route", route),
                            now -> orNaN(route(now, route), found -> found.panic() ? 1 : 0))));
        }
        forgetAllBut(servers, serverKeys);
        forgetAllBut(witnesses, witnessKeys);
        forgetAllBut(routes, routeKeys);
    }

    private Meter gauge(String name, String description, Tags tags, ToDoubleFunction<MeshView> value) {
        return Gauge.builder(
                        name,
                        store,
                        current -> value.applyAsDouble(current.current().part(MeshView.PART)))
                .description(description)
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }

    private void forgetAllBut(Map<String, List<Meter>> meters, Set<String> keep) {
        meters.entrySet().removeIf(entry -> {
            if (keep.contains(entry.getKey())) {
                return false;
            }
            entry.getValue().forEach(registry::remove);
            return true;
        });
    }

    /** {@code read} of {@code value}, or NaN while there is none (the gauge's subject left the view). */
    private static <T> double orNaN(@Nullable T value, ToDoubleFunction<T> read) {
        return value == null ? Double.NaN : read.applyAsDouble(value);
    }

    private static @Nullable ServerVerdict server(MeshView view, String name) {
        return view.judgement().servers().stream()
                .filter(verdict -> verdict.name().equals(name))
                .findFirst()
                .orElse(null);
    }

    private static @Nullable RouteServing route(MeshView view, String route) {
        return view.judgement().routes().stream()
                .filter(serving -> serving.route().equals(route))
                .findFirst()
                .orElse(null);
    }

    private static @Nullable WitnessStanding witness(MeshView view, String name) {
        return view.judgement().witnesses().stream()
                .filter(standing -> standing.name().equals(name))
                .findFirst()
                .orElse(null);
    }
}
