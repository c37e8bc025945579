package io.observatory.mesh.api;

import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.observatory.api.ObservationProtos;
import io.observatory.api.v1.ProbeErrorKind;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.mesh.api.v1.EntryPoint;
import io.observatory.mesh.api.v1.EntryPointStatus;
import io.observatory.mesh.api.v1.GetFleetResponse;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.MeshProbe;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.PathKey;
import io.observatory.mesh.api.v1.PathReport;
import io.observatory.mesh.api.v1.PathStatus;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.RouteStatus;
import io.observatory.mesh.api.v1.SelfCheck;
import io.observatory.mesh.api.v1.Server;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WitnessIdentity;
import io.observatory.mesh.api.v1.WitnessStatus;
import io.observatory.mesh.config.EntryPointSettings;
import io.observatory.mesh.config.FleetWitnessSettings;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.hub.MeshLedger;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshFleet;
import io.observatory.mesh.judge.MeshJudgement.PairCut;
import io.observatory.mesh.judge.MeshJudgement.RouteServing;
import io.observatory.mesh.judge.MeshJudgement.ServerVerdict;
import io.observatory.mesh.judge.MeshJudgement.WitnessStanding;
import io.observatory.mesh.judge.WitnessAssignment;
import io.observatory.mesh.protocol.LastProbe;
import io.observatory.mesh.protocol.PathStreak;
import io.observatory.mesh.protocol.ServerMetrics;
import io.observatory.mesh.protocol.WitnessFleet;
import io.observatory.mesh.protocol.WitnessReport;
import io.observatory.probe.ProbeError;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps the mesh model to {@code proto/observatory/mesh/v1/mesh.proto} and reports back. Pure. */
final class MeshProtos {

    private static final Logger log = LoggerFactory.getLogger(MeshProtos.class);

    /** The most paths one report may carry: every entry point of a 10,000-entry fleet. */
    static final int MAX_PATHS = 10_000;

    /** The most self-checks one report may carry. */
    static final int MAX_SELF_CHECKS = 64;

    /** The longest text a report may put into the hub's view, logs and reasons; longer ones are cut. */
    static final int MAX_TEXT = 256;

    /** How far ahead of the hub's clock a witness's process start may be (clocks disagree a little). */
    static final Duration MAX_CLOCK_AHEAD = Duration.ofMinutes(5);

    private MeshProtos() {}

    /**
     * What witness {@code witness} is handed: itself, how to probe and report, and the servers it probes (its
     * {@code assignment}) with its own server, which it reports on but does not probe.
     */
    static GetFleetResponse fleet(HubSettings settings, FleetWitnessSettings witness, WitnessAssignment assignment) {
        return fleet(settings, witness, assignment, servers(settings));
    }

    /**
     * As {@link #fleet(HubSettings, FleetWitnessSettings, WitnessAssignment)}, from the fleet's server messages built
     * once ({@link #servers}): O(servers handed) a call, not O(fleet) messages built.
     */
    static GetFleetResponse fleet(
            HubSettings settings, FleetWitnessSettings witness, WitnessAssignment assignment, List<Server> servers) {
        GetFleetResponse.Builder fleet = GetFleetResponse.newBuilder()
                .setWitness(WitnessIdentity.newBuilder()
                        .setName(witness.name())
                        .setSite(witness.site())
                        .setServer(witness.server() == null ? "" : witness.server())
                        .setChecker(witness.checker()))
                .setProbe(MeshProbe.newBuilder()
                        .setProbeUrl(settings.probe().probeUri().toString())
                        .setProbeIntervalMillis(settings.probe().probeInterval().toMillis())
                        .setTimeoutMillis(settings.probe().timeout().toMillis()))
                .setReportIntervalMillis(settings.reportInterval().toMillis());
        if (assignment.full()) {
            return fleet.addAllServers(servers).build();
        }
        Set<String> handed = new HashSet<>(assignment.serversOf(witness.name()));
        if (witness.server() != null) {
            handed.add(witness.server());
        }
        servers.stream().filter(server -> handed.contains(server.getName())).forEach(fleet::addServers);
        return fleet.build();
    }

    /** Every server of the fleet as GetFleet hands it, in fleet order: built once per settings. */
    static List<Server> servers(HubSettings settings) {
        List<Server> servers = new ArrayList<>(settings.servers().size());
        settings.servers().forEach(server -> {
            Server.Builder message = Server.newBuilder().setName(server.name()).setRoute(server.route());
            for (EntryPointSettings entry : server.entryPoints()) {
                EntryPoint.Builder entryPoint = EntryPoint.newBuilder()
                        .setName(entry.name())
                        .setTag(server.name() + "/" + entry.name())
                        .setProtocol(entry.protocol().name().toLowerCase(Locale.ROOT));
                if (entry.address() != null) {
                    entryPoint.setAddress(entry.address());
                }
                if (entry.port() != null) {
                    entryPoint.setPort(entry.port());
                }
                if (entry.username() != null && entry.password() != null) {
                    entryPoint.setUsername(entry.username()).setPassword(entry.password());
                }
                if (entry.probeUrl() != null) {
                    entryPoint.setProbeUrl(entry.probeUrl());
                }
                if (entry.sni() != null) {
                    entryPoint.setSni(entry.sni());
                }
                entryPoint.addAllAlpn(entry.alpn()).setAllowInsecure(entry.allowInsecure());
                if (entry.outbound() != null) {
                    entryPoint.setOutbound(entry.outbound());
                }
                message.addEntryPoints(entryPoint);
            }
            servers.add(message.build());
        });
        return List.copyOf(servers);
    }

    /**
     * A report as the ledger holds it, every text cut to {@value #MAX_TEXT} characters with control characters
     * replaced.
     *
     * @param now the hub's wall clock
     * @throws io.grpc.StatusRuntimeException {@code INVALID_ARGUMENT} naming the field, for a report without a
     *                                        valid process start or one more than {@link #MAX_CLOCK_AHEAD} ahead of
     *                                        {@code now}, a sequence outside 1 to 2^63-1, too many paths or checks, or
     *                                        a path repeated
     */
    static MeshLedger.Report report(ReportRequest request, Instant now) {
        Timestamp start = request.getProcessStartTime();
        if (!request.hasProcessStartTime() || !valid(start)) {
            throw invalid("process_start_time: " + (request.hasProcessStartTime() ? "out of range" : "unset")
                    + " (expected: when the witness's process started)");
        }
        Instant started = Instant.ofEpochSecond(start.getSeconds(), start.getNanos());
        if (started.isAfter(now.plus(MAX_CLOCK_AHEAD))) {
            throw invalid("process_start_time: " + started + " (expected: not after the hub's clock, " + now
                    + ", by more than " + MAX_CLOCK_AHEAD.toMinutes() + " minutes)");
        }
        if (request.getSequence() <= 0) {
            throw invalid("sequence: " + Long.toUnsignedString(request.getSequence())
                    + " (expected: 1 to 9223372036854775807, increasing within one process)");
        }
        if (request.getPathsCount() > MAX_PATHS) {
            throw invalid("paths: " + request.getPathsCount() + " (expected: at most " + MAX_PATHS + ")");
        }
        if (request.getSelfChecksCount() > MAX_SELF_CHECKS) {
            throw invalid(
                    "self_checks: " + request.getSelfChecksCount() + " (expected: at most " + MAX_SELF_CHECKS + ")");
        }
        String failing = null;
        for (SelfCheck check : request.getSelfChecksList()) {
            if (!check.getPassing()) {
                failing = text(check.getName())
                        + (check.getDetail().isEmpty() ? "" : " (" + text(check.getDetail()) + ")");
                break;
            }
        }
        Set<String> seen = new HashSet<>();
        List<PathStreak> streaks = new ArrayList<>(request.getPathsCount());
        for (int i = 0; i < request.getPathsCount(); i++) {
            PathReport path = request.getPaths(i);
            if (!seen.add(path.getServer() + "/" + path.getEntryPoint())) {
                throw invalid("paths[" + i + "]: " + path.getServer() + "/" + path.getEntryPoint()
                        + " (expected: each entry point once)");
            }
            // uint32 on the wire: a streak beyond int's range is as much a vote as any streak of at least 1.
            int failures = (int) Math.min(Integer.toUnsignedLong(path.getFailures()), Integer.MAX_VALUE);
            int successes = (int) Math.min(Integer.toUnsignedLong(path.getSuccesses()), Integer.MAX_VALUE);
            streaks.add(new PathStreak(
                    text(path.getServer()),
                    text(path.getEntryPoint()),
                    failures,
                    PathStreak.successesRead(failures, successes),
                    new LastProbe(
                            path.getLastSuccess(),
                            kind(path.getLastErrorKind()),
                            text(path.getLastError()),
                            Math.max(0, path.getLastRttNanos()))));
        }
        return new MeshLedger.Report(
                started.toEpochMilli(),
                request.getSequence(),
                failing,
                streaks,
                request.hasMetrics() ? MetricsProtos.read(request.getMetrics()) : ServerMetrics.NONE);
    }

    /** Whether {@code time} is within the range google.protobuf.Timestamp defines (years 1 to 9999). */
    private static boolean valid(Timestamp time) {
        return time.getSeconds() >= -62_135_596_800L
                && time.getSeconds() <= 253_402_300_799L
                && time.getNanos() >= 0
                && time.getNanos() <= 999_999_999;
    }

    /** {@code value} cut to {@value #MAX_TEXT} characters, control characters (line breaks too) as spaces. */
    static String text(String value) {
        String cut = value.length() > MAX_TEXT ? value.substring(0, MAX_TEXT - 1) + "…" : value;
        return cut.replaceAll("\\p{Cc}", " ");
    }

    /** The fleet as witness runtime probes it: every server but the witness's own. */
    static WitnessFleet witnessFleet(GetFleetResponse response) {
        Map<String, WitnessFleet.Target> targets = new LinkedHashMap<>();
        String own = response.getWitness().getServer();
        URI defaultUrl = URI.create(response.getProbe().getProbeUrl());
        for (Server server : response.getServersList()) {
            if (server.getName().equals(own)) {
                continue;
            }
            for (EntryPoint entry : server.getEntryPointsList()) {
                Protocol protocol = protocol(entry.getProtocol());
                if (protocol == null) {
                    log.warn(
                            "mesh fleet: entry point {} has protocol {}, which this witness cannot probe (expected:"
                                    + " direct, http, socks, tcp, tls, xray); it is left out",
                            text(entry.getTag()),
                            text(entry.getProtocol()));
                    continue;
                }
                boolean addressed = protocol != Protocol.DIRECT && protocol != Protocol.XRAY;
                boolean tls = protocol == Protocol.TLS;
                Outbound outbound = new Outbound(
                        entry.getTag(),
                        protocol,
                        addressed ? entry.getAddress() : null,
                        addressed ? entry.getPort() : null,
                        entry.getUsername(),
                        entry.getPassword(),
                        entry.getProbeUrl(),
                        tls ? entry.getSni() : null,
                        tls ? entry.getAlpnList() : List.of(),
                        tls && entry.getAllowInsecure());
                String object = protocol == Protocol.XRAY ? entry.getOutbound() : null;
                targets.put(
                        entry.getTag(), new WitnessFleet.Target(server.getName(), entry.getName(), outbound, object));
            }
        }
        return new WitnessFleet(
                targets,
                defaultUrl,
                positive(response.getProbe().getProbeIntervalMillis()),
                positive(response.getProbe().getTimeoutMillis()),
                positive(response.getReportIntervalMillis()));
    }

    /** A witness's report as it goes on the wire. */
    static ReportRequest request(WitnessReport report) {
        ReportRequest.Builder request = ReportRequest.newBuilder()
                .setWitness(report.witness())
                .setProcessStartTime(ObservationProtos.timestamp(report.processStart()))
                .setSequence(report.sequence());
        report.selfChecks()
                .forEach(check -> request.addSelfChecks(SelfCheck.newBuilder()
                        .setName(check.name())
                        .setPassing(check.passing())
                        .setDetail(check.detail())));
        for (PathStreak path : report.paths()) {
            PathReport.Builder message = PathReport.newBuilder()
                    .setServer(path.server())
                    .setEntryPoint(path.entryPoint())
                    .setFailures(path.failures())
                    .setSuccesses(path.successes())
                    .setLastSuccess(path.last().success())
                    .setLastError(path.last().error())
                    .setLastRttNanos(path.last().rttNanos());
            if (path.last().errorKind() != null) {
                message.setLastErrorKind(ProbeErrorKind.valueOf(
                        "PROBE_ERROR_KIND_" + path.last().errorKind().name()));
            }
            request.addPaths(message);
        }
        if (!report.metrics().equals(ServerMetrics.NONE)) {
            request.setMetrics(MetricsProtos.message(report.metrics()));
        }
        return request.build();
    }

    private static @Nullable Protocol protocol(String name) {
        for (Protocol protocol : Protocol.values()) {
            if (protocol.name().equalsIgnoreCase(name)) {
                return protocol;
            }
        }
        return null;
    }

    private static Duration positive(long millis) {
        return Duration.ofMillis(Math.max(1, millis));
    }

    /** The whole view, with the matrix. */
    static GetMeshResponse view(MeshView view) {
        return view(view, true).build();
    }

    /**
     * The whole view: every server, witness and route, and with {@code paths} the matrix. O(servers + witnesses),
     * plus O(paths) with the matrix.
     */
    static GetMeshResponse.Builder view(MeshView view, boolean paths) {
        GetMeshResponse.Builder mesh = GetMeshResponse.newBuilder();
        Map<String, MeshFleet.Server> servers = servers(view);
        for (ServerVerdict verdict : view.judgement().servers()) {
            mesh.addServers(server(view, verdict, servers));
        }
        Map<String, MeshFleet.Witness> witnesses = witnesses(view);
        for (WitnessStanding standing : view.judgement().witnesses()) {
            mesh.addWitnesses(witness(view, standing, witnesses));
        }
        if (paths) {
            for (MeshView.Path path : view.paths()) {
                mesh.addPaths(cell(path.witness(), path.streak(), path.reportTime()));
            }
        }
        view.judgement().routes().forEach(route -> mesh.addRoutes(route(route)));
        return mesh;
    }

    /**
     * What changed from {@code from} to {@code to}, for a client that holds {@code from}: the servers whose verdict
     * or entry points changed, the witnesses whose standing or place in the fleet changed, the routes whose servers
     * changed, and with {@code paths} the cells whose streak or report changed; and what left. Servers, witnesses and
     * routes are compared by reference first (an unchanged verdict is the same object from one judgement to the
     * next), so this costs O(servers + witnesses) comparisons and builds only what changed; with {@code paths},
     * O(cells of the witnesses that reported since).
     */
    static GetMeshResponse.Builder changes(MeshView from, MeshView to, boolean paths) {
        GetMeshResponse.Builder mesh = GetMeshResponse.newBuilder();
        Map<String, MeshFleet.Server> servers = servers(to);
        Map<String, MeshFleet.Server> serversBefore = servers(from);
        Map<String, ServerVerdict> verdictsBefore = new HashMap<>();
        from.judgement().servers().forEach(verdict -> verdictsBefore.put(verdict.name(), verdict));
        for (ServerVerdict verdict : to.judgement().servers()) {
            if (!verdict.equals(verdictsBefore.remove(verdict.name()))
                    || !Objects.equals(servers.get(verdict.name()), serversBefore.get(verdict.name()))) {
                mesh.addServers(server(to, verdict, servers));
            }
        }
        mesh.addAllRemovedServers(new TreeSet<>(verdictsBefore.keySet()));
        Map<String, MeshFleet.Witness> witnesses = witnesses(to);
        Map<String, MeshFleet.Witness> witnessesBefore = witnesses(from);
        Map<String, WitnessStanding> standingsBefore = new HashMap<>();
        from.judgement().witnesses().forEach(standing -> standingsBefore.put(standing.name(), standing));
        for (WitnessStanding standing : to.judgement().witnesses()) {
            if (!standing.equals(standingsBefore.remove(standing.name()))
                    || !Objects.equals(witnesses.get(standing.name()), witnessesBefore.get(standing.name()))) {
                mesh.addWitnesses(witness(to, standing, witnesses));
            }
        }
        mesh.addAllRemovedWitnesses(new TreeSet<>(standingsBefore.keySet()));
        Map<String, RouteServing> routesBefore = new HashMap<>();
        from.judgement().routes().forEach(route -> routesBefore.put(route.route(), route));
        for (RouteServing route : to.judgement().routes()) {
            if (!route.equals(routesBefore.remove(route.route()))) {
                mesh.addRoutes(route(route));
            }
        }
        mesh.addAllRemovedRoutes(new TreeSet<>(routesBefore.keySet()));
        if (paths) {
            changedCells(from, to, mesh);
        }
        return mesh;
    }

    /** The cells of {@code to} that {@code from} did not have as they are, and the cells that went. */
    @SuppressWarnings(
            "ReferenceEquality") // a witness's streaks are the list of its report: another report, another list
    private static void changedCells(MeshView from, MeshView to, GetMeshResponse.Builder mesh) {
        Set<String> reported = new TreeSet<>(to.streaks().keySet());
        reported.addAll(from.streaks().keySet());
        for (String witness : reported) {
            List<PathStreak> before = from.streaks().getOrDefault(witness, List.of());
            List<PathStreak> after = to.streaks().getOrDefault(witness, List.of());
            Instant at = to.lastReports().get(witness);
            if (before == after && Objects.equals(at, from.lastReports().get(witness))) {
                continue;
            }
            Map<String, PathStreak> gone = new TreeMap<>();
            before.forEach(streak -> gone.put(streak.server() + "/" + streak.entryPoint(), streak));
            for (PathStreak streak : after) {
                gone.remove(streak.server() + "/" + streak.entryPoint());
                if (at != null) {
                    mesh.addPaths(cell(witness, streak, at));
                }
            }
            gone.values()
                    .forEach(streak -> mesh.addRemovedPaths(PathKey.newBuilder()
                            .setWitness(witness)
                            .setServer(streak.server())
                            .setEntryPoint(streak.entryPoint())));
        }
    }

    private static Map<String, MeshFleet.Server> servers(MeshView view) {
        Map<String, MeshFleet.Server> servers = new HashMap<>();
        view.fleet().servers().forEach(server -> servers.put(server.name(), server));
        return servers;
    }

    private static Map<String, MeshFleet.Witness> witnesses(MeshView view) {
        Map<String, MeshFleet.Witness> witnesses = new HashMap<>();
        view.fleet().witnesses().forEach(witness -> witnesses.put(witness.name(), witness));
        return witnesses;
    }

    private static ServerStatus server(MeshView view, ServerVerdict verdict, Map<String, MeshFleet.Server> servers) {
        ServerStatus.Builder server = ServerStatus.newBuilder()
                .setName(verdict.name())
                .setRoute(verdict.route())
                .setStatus(MeshStatus.valueOf("MESH_STATUS_" + verdict.status().name()))
                .setVoters(verdict.voters())
                .setReason(verdict.reason())
                .setInRotation(verdict.inRotation());
        MeshFleet.Server fleetServer = Objects.requireNonNull(servers.get(verdict.name()), "a verdict of the fleet");
        for (String entryPoint : fleetServer.entryPoints()) {
            EntryPointStatus.Builder entry =
                    EntryPointStatus.newBuilder().setName(entryPoint).setTag(fleetServer.tag(entryPoint));
            PairCut cut = verdict.pairCuts().get(entryPoint);
            if (cut != null) {
                entry.addMarks("PAIR_CUT")
                        .setReason("pair cut: " + cut.reason())
                        .setRanked(cut.ranked());
            }
            server.addEntryPoints(entry);
        }
        MeshView.Metrics metrics = view.metrics().get(verdict.name());
        if (metrics != null) {
            server.setMetrics(MetricsProtos.message(metrics.metrics()))
                    .setMetricsTime(ObservationProtos.timestamp(metrics.reportTime()))
                    .setMetricsStale(metrics.stale());
        }
        return server.build();
    }

    private static WitnessStatus witness(
            MeshView view, WitnessStanding standing, Map<String, MeshFleet.Witness> witnesses) {
        MeshFleet.Witness witness = Objects.requireNonNull(witnesses.get(standing.name()), "a witness of the fleet");
        WitnessStatus.Builder status = WitnessStatus.newBuilder()
                .setName(standing.name())
                .setSite(standing.site())
                .setServer(witness.server() == null ? "" : witness.server())
                .setChecker(standing.checker())
                .setReliable(standing.reliable())
                .setShare(standing.share())
                .setNeighbours(standing.neighbours())
                .setReason(standing.reason());
        Instant last = view.lastReports().get(standing.name());
        if (last != null) {
            status.setLastReportTime(ObservationProtos.timestamp(last));
        }
        return status.build();
    }

    private static PathStatus cell(String witness, PathStreak streak, Instant reportTime) {
        PathStatus.Builder cell = PathStatus.newBuilder()
                .setWitness(witness)
                .setServer(streak.server())
                .setEntryPoint(streak.entryPoint())
                .setFailures(streak.failures())
                .setSuccesses(streak.successes())
                .setLastSuccess(streak.last().success())
                .setLastError(streak.last().error())
                .setLastRttNanos(streak.last().rttNanos())
                .setReportTime(ObservationProtos.timestamp(reportTime));
        if (streak.last().errorKind() != null) {
            cell.setLastErrorKind(ProbeErrorKind.valueOf(
                    "PROBE_ERROR_KIND_" + streak.last().errorKind().name()));
        }
        return cell.build();
    }

    /** One route's servers. */
    static RouteStatus route(RouteServing route) {
        return RouteStatus.newBuilder()
                .setRoute(route.route())
                .addAllServers(route.servers())
                .setPanic(route.panic())
                .build();
    }

    private static ProbeError.@Nullable Kind kind(ProbeErrorKind kind) {
        if (kind == ProbeErrorKind.PROBE_ERROR_KIND_UNSPECIFIED || kind == ProbeErrorKind.UNRECOGNIZED) {
            return null;
        }
        return ProbeError.Kind.valueOf(kind.name().substring("PROBE_ERROR_KIND_".length()));
    }

    private static io.grpc.StatusRuntimeException invalid(String description) {
        return Status.INVALID_ARGUMENT.withDescription(description).asRuntimeException();
    }
}
