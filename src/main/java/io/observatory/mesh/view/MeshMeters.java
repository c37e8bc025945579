package io.observatory.mesh.view;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.snapshot.Memo;
import io.observatory.snapshot.ObservationStore;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
 *       best-ranked are served anyway, 0 when not;
 *   <li>what the server's witness last reported of it (tags {@code server}, {@code route}; NaN while it reported no
 *       such value): {@value #SERVER_CPU_USAGE} (0-1), {@value #SERVER_LOAD1}, {@value #SERVER_MEMORY_AVAILABLE},
 *       {@value #SERVER_DISK_FREE}, {@value #SERVER_NETWORK_RECEIVE}, {@value #SERVER_NETWORK_TRANSMIT},
 *       {@value #SERVER_TCP_CONNECTIONS}, and {@value #SERVER_METRICS_STALE}: 1 when that report is older than
 *       {@code no-data-after}, so the values are the last known, 0 when not;
 *   <li>{@value #SERVER_EXTRA} (tags {@code server}, {@code route}, {@code series}): each series its witness read from
 *       a local exporter ({@code observatory.mesh.witness.metrics.series}), at most 32 per server.
 * </ul>
 * Costs ten gauges per server (plus its exporter series), two per witness and one per route: 1,210 for 100 servers,
 * 100 witnesses and 10 routes.
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
    /** Prometheus shows {@code observatory_mesh_server_cpu_usage}. */
    static final String SERVER_CPU_USAGE = "observatory.mesh.server.cpu.usage";
    /** Prometheus shows {@code observatory_mesh_server_load1}. */
    static final String SERVER_LOAD1 = "observatory.mesh.server.load1";
    /** Prometheus shows {@code observatory_mesh_server_memory_available_bytes}. */
    static final String SERVER_MEMORY_AVAILABLE = "observatory.mesh.server.memory.available";
    /** Prometheus shows {@code observatory_mesh_server_disk_free_bytes}. */
    static final String SERVER_DISK_FREE = "observatory.mesh.server.disk.free";
    /** Prometheus shows {@code observatory_mesh_server_network_receive_bytes_per_second}. */
    static final String SERVER_NETWORK_RECEIVE = "observatory.mesh.server.network.receive";
    /** Prometheus shows {@code observatory_mesh_server_network_transmit_bytes_per_second}. */
    static final String SERVER_NETWORK_TRANSMIT = "observatory.mesh.server.network.transmit";
    /** Prometheus shows {@code observatory_mesh_server_tcp_connections}. */
    static final String SERVER_TCP_CONNECTIONS = "observatory.mesh.server.tcp.connections";
    /** Prometheus shows {@code observatory_mesh_server_extra}. */
    static final String SERVER_EXTRA = "observatory.mesh.server.extra";
    /** Prometheus shows {@code observatory_mesh_server_metrics_stale}. */
    static final String SERVER_METRICS_STALE = "observatory.mesh.server.metrics.stale";

    private final ObservationStore store;
    private final MeterRegistry registry;
    // Confined to the writer.
    private final Map<String, List<Meter>> servers = new HashMap<>();
    private final Map<String, List<Meter>> witnesses = new HashMap<>();
    private final Map<String, List<Meter>> routes = new HashMap<>();
    private final Map<String, List<Meter>> extras = new HashMap<>();
    // The fleet whose servers, witnesses and routes have gauges: a view of the same fleet changes none of them.
    private @Nullable MeshFleet followedFleet;
    // The last view indexed for the gauges, built once per view for every gauge of a scrape.
    private final Memo<MeshView, Indexed> indexed = new Memo<>(MeshMeters::index);

    MeshMeters(ObservationStore store, MeterRegistry registry) {
        this.store = store;
        this.registry = registry;
        store.watchPart(MeshView.PART, this::follow);
    }

    @SuppressWarnings("ReferenceEquality") // a reload builds a new fleet: the same fleet is the same reference
    private void follow(MeshView view) {
        if (view.fleet() != followedFleet) {
            followFleet(view);
            followedFleet = view.fleet();
        }
        Set<String> extraKeys = new HashSet<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            MeshView.Metrics metrics = view.metrics().get(verdict.name());
            for (ServerMetrics.Extra extra : metrics == null
                    ? List.<ServerMetrics.Extra>of()
                    : metrics.metrics().extra()) {
                String name = verdict.name();
                String series = extra.name();
                String key = name + "\n" + verdict.route() + "\n" + series;
                extraKeys.add(key);
                extras.computeIfAbsent(
                        key,
                        unused -> List.of(gauge(
                                SERVER_EXTRA,
                                "A series the server's witness read from a local exporter",
                                Tags.of("server", name, "route", verdict.route(), "series", series),
                                now -> extra(now, name, series))));
            }
        }
        forgetAllBut(extras, extraKeys);
    }

    /** The gauges of the servers, witnesses and routes of {@code view}'s fleet, which only a reload changes. */
    @SuppressWarnings("EnumOrdinal") // the status gauge is documented by MeshStatus's order, best to worst
    private void followFleet(MeshView view) {
        Set<String> serverKeys = new HashSet<>();
        for (ServerVerdict verdict : view.judgement().servers()) {
            String name = verdict.name();
            String route = verdict.route();
            String key = name + "\n" + route;
            serverKeys.add(key);
            Tags tags = Tags.of("server", name, "route", route);
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
                                    now -> orNaN(server(now, name), found -> found.inRotation() ? 1 : 0)),
                            gauge(
                                    SERVER_CPU_USAGE,
                                    "Share of the server's CPUs busy, 0-1",
                                    tags,
                                    reported(name, ServerMetrics::cpuUsage),
                                    null),
                            gauge(
                                    SERVER_LOAD1,
                                    "The server's 1-minute load average",
                                    tags,
                                    reported(name, ServerMetrics::load1),
                                    null),
                            gauge(
                                    SERVER_MEMORY_AVAILABLE,
                                    "The server's memory available without swapping",
                                    tags,
                                    reported(name, ServerMetrics::memoryAvailableBytes),
                                    BaseUnits.BYTES),
                            gauge(
                                    SERVER_DISK_FREE,
                                    "Free space of the server's watched file system",
                                    tags,
                                    reported(name, ServerMetrics::diskFreeBytes),
                                    BaseUnits.BYTES),
                            gauge(
                                    SERVER_NETWORK_RECEIVE,
                                    "Bytes the server received a second, all interfaces but" + " loopback",
                                    tags,
                                    reported(name, ServerMetrics::networkInBytesPerSecond),
                                    "bytes.per.second"),
                            gauge(
                                    SERVER_NETWORK_TRANSMIT,
                                    "Bytes the server sent a second, all interfaces but" + " loopback",
                                    tags,
                                    reported(name, ServerMetrics::networkOutBytesPerSecond),
                                    "bytes.per.second"),
                            gauge(
                                    SERVER_TCP_CONNECTIONS,
                                    "The server's established TCP connections",
                                    tags,
                                    reported(name, ServerMetrics::tcpConnections),
                                    null),
                            gauge(
                                    SERVER_METRICS_STALE,
                                    "1 when the server's metrics are older than no-data-after",
                                    tags,
                                    now -> orNaN(now.metrics().get(name), found -> found.stale() ? 1 : 0),
                                    null)));
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
        return gauge(name, description, tags, value, null);
    }

    private Meter gauge(
            String name, String description, Tags tags, ToDoubleFunction<MeshView> value, @Nullable String unit) {
        return Gauge.builder(
                        name,
                        store,
                        current -> value.applyAsDouble(current.current().part(MeshView.PART)))
                .description(description)
                .tags(tags)
                .baseUnit(unit)
                .strongReference(true)
                .register(registry);
    }

    /** The value {@code read} of what server {@code name}'s witness reported last, or NaN while there is none. */
    private static ToDoubleFunction<MeshView> reported(String name, Function<ServerMetrics, @Nullable Number> read) {
        return view -> {
            MeshView.Metrics metrics = view.metrics().get(name);
            Number value = metrics == null ? null : read.apply(metrics.metrics());
            return value == null ? Double.NaN : value.doubleValue();
        };
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

    private @Nullable ServerVerdict server(MeshView view, String name) {
        return indexed.get(view).servers().get(name);
    }

    /** The value of series {@code series} server {@code name}'s witness reported last, or NaN while there is none. */
    private static double extra(MeshView view, String name, String series) {
        MeshView.Metrics metrics = view.metrics().get(name);
        return metrics == null
                ? Double.NaN
                : metrics.metrics().extra().stream()
                        .filter(extra -> extra.name().equals(series))
                        .mapToDouble(ServerMetrics.Extra::value)
                        .findFirst()
                        .orElse(Double.NaN);
    }

    private @Nullable RouteServing route(MeshView view, String route) {
        return indexed.get(view).routes().get(route);
    }

    private @Nullable WitnessStanding witness(MeshView view, String name) {
        return indexed.get(view).witnesses().get(name);
    }

    /**
     * {@code view}'s verdicts, standings and routes by name, built once per view ({@link #indexed}) for every gauge of
     * a scrape (a linear search per gauge was O(servers²) a scrape: 10⁸ comparisons at 10,000 servers).
     */
    private static Indexed index(MeshView view) {
        Map<String, ServerVerdict> servers = new HashMap<>();
        view.judgement().servers().forEach(verdict -> servers.put(verdict.name(), verdict));
        Map<String, WitnessStanding> witnesses = new HashMap<>();
        view.judgement().witnesses().forEach(standing -> witnesses.put(standing.name(), standing));
        Map<String, RouteServing> routes = new HashMap<>();
        view.judgement().routes().forEach(serving -> routes.put(serving.route(), serving));
        return new Indexed(servers, witnesses, routes);
    }

    /** A view's verdicts, standings and routes by name. */
    private record Indexed(
            Map<String, ServerVerdict> servers,
            Map<String, WitnessStanding> witnesses,
            Map<String, RouteServing> routes) {}
}
