package io.observatory.meshlab;

import static io.observatory.meshlab.NetworkFault.dropIncoming;
import static io.observatory.meshlab.NetworkFault.dropOutgoing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.observatory.ObservatoryApplication;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.HealthState;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.mesh.api.v1.EntryPointStatus;
import io.observatory.mesh.api.v1.GetMeshRequest;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.ListRouteRequest;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.PathStatus;
import io.observatory.mesh.api.v1.RouteStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WitnessStatus;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * The mesh under real network faults, as {@code .ci/mesh-lab} sets it up (as root): four servers s1-s4, each a
 * network namespace with its own address, its microsocks entry point and its witness w1-w4 (the service jar run with
 * {@code ip netns exec}, so its probes, self-check and reports leave from that namespace); the hub in this JVM, in
 * the root namespace, on the lab link's root address, where the probe target also listens. Routes: s1, s2 serve
 * {@code eu}, s3, s4 serve {@code world}; sites de, nl, fr, us; w3 is a checker. Faults are nft drop rules inside the
 * namespaces; every verdict is read from the hub as a balancer reads it ({@code observatory.mesh.v1} GetMesh and
 * ListRoute, {@code observatory.v1} GetObservation, grpc.health.v1), polled every 25 ms, and each detection and
 * healing time is printed and held to the bound of the mesh's design: streak × probe interval + report interval + 1 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MeshLabIT {

    private static final int STREAK = 3;
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(500);
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(300);
    private static final Duration REPORT_INTERVAL = Duration.ofSeconds(1);
    /** How late the hub may serve a fault's verdict or its end: streak × probe interval + report interval + 1 s. */
    private static final Duration BOUND =
            PROBE_INTERVAL.multipliedBy(STREAK).plus(REPORT_INTERVAL).plusSeconds(1);
    /** How long a wait may last before it fails; a time past the bound fails after it has been printed. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    /** A verdict that must hold, watched this long after it appeared: two more reports of every witness. */
    private static final Duration HOLD = REPORT_INTERVAL.multipliedBy(2).plusMillis(200);

    private static final Duration STARTUP_LIMIT = Duration.ofSeconds(180);
    private static final Duration POLL = Duration.ofMillis(25);
    private static final String[] SITES = {"de", "nl", "fr", "us"};
    private static final String[] ROUTES = {"eu", "eu", "world", "world"};
    /** w3, the witness on s3, is the checker. */
    private static final int CHECKER = 3;

    private MeshLab lab;
    private HttpServer target;
    private ConfigurableApplicationContext hub;
    private ManagedChannel channel;
    private final List<WitnessProcess> witnesses = new ArrayList<>();
    private final List<NetworkFault> faults = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();

    @BeforeAll
    void startFleet() throws Exception {
        lab = MeshLab.fromSystemProperties();
        Files.createDirectories(lab.workDir());
        long begin = System.nanoTime();
        target = HttpServer.create(new InetSocketAddress(lab.hubAddress(), 0), 64);
        target.createContext("/", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        target.start();
        String probeUrl =
                "http://" + lab.hubAddress() + ":" + target.getAddress().getPort() + "/generate_204";

        List<String> hubArgs = new ArrayList<>(List.of(
                "--spring.grpc.server.address=" + lab.hubAddress(),
                "--spring.grpc.server.port=0",
                "--server.address=127.0.0.1",
                "--server.port=0",
                "--observatory.mesh.hub.streak=" + STREAK,
                "--observatory.mesh.hub.quorum=2",
                "--observatory.mesh.hub.report-interval=" + REPORT_INTERVAL.toMillis() + "ms",
                "--observatory.mesh.hub.probe.probe-interval=" + PROBE_INTERVAL.toMillis() + "ms",
                "--observatory.mesh.hub.probe.timeout=" + PROBE_TIMEOUT.toMillis() + "ms",
                "--observatory.mesh.hub.probe.probe-url=" + probeUrl));
        for (int n = 1; n <= servers(); n++) {
            String server = "--observatory.mesh.hub.servers[" + (n - 1) + "].";
            String entry = server + "entry-points[0].";
            hubArgs.addAll(List.of(
                    server + "name=s" + n,
                    server + "route=" + ROUTES[n - 1],
                    entry + "name=main",
                    entry + "protocol=socks",
                    entry + "address=" + address(n),
                    entry + "port=" + lab.entryPort(),
                    entry + "username=" + lab.entryUsername(),
                    entry + "password=" + lab.entryPassword()));
            String witness = "--observatory.mesh.hub.witnesses[" + (n - 1) + "].";
            hubArgs.addAll(List.of(
                    witness + "name=w" + n,
                    witness + "site=" + SITES[n - 1],
                    witness + "server=s" + n,
                    witness + "checker=" + (n == CHECKER),
                    witness + "token-file=" + token(n)));
        }
        CompletableFuture<Integer> hubPort = new CompletableFuture<>();
        hub = new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        hubPort.complete(started.getPort());
                    }
                })
                .run(hubArgs.toArray(String[]::new));
        String hubAddress = lab.hubAddress() + ":" + hubPort.get(10, TimeUnit.SECONDS);
        channel = NettyChannelBuilder.forAddress(new InetSocketAddress(lab.hubAddress(), hubPort.get()))
                .usePlaintext()
                .build();

        for (int n = 1; n <= servers(); n++) {
            witnesses.add(WitnessProcess.start(
                    "w" + n,
                    namespace(n),
                    lab.jar(),
                    lab.workDir(),
                    List.of(
                            "--spring.grpc.server.address=127.0.0.1",
                            "--spring.grpc.server.port=0",
                            "--server.address=127.0.0.1",
                            "--server.port=0",
                            "--observatory.mesh.witness.name=w" + n,
                            "--observatory.mesh.witness.checks[0].tcp=" + address(n) + ":" + lab.entryPort(),
                            "--observatory.mesh.witness.hubs[0]=" + hubAddress,
                            "--observatory.mesh.witness.token-file=" + token(n),
                            // The lab's veth pairs are a private network of this host's own.
                            "--observatory.mesh.witness.token-over-plaintext=true")));
        }
        print("hub on " + hubAddress + " (root namespace), probe target " + probeUrl + ", witnesses "
                + witnesses.stream()
                        .map(w -> w.name() + " pid " + w.pid() + " in " + w.namespace())
                        .collect(Collectors.joining(", ")));
        Duration ready = until(
                begin,
                STARTUP_LIMIT,
                "every witness reporting, every path probed successfully",
                this::healthy,
                mesh -> {});
        print("fleet ready in " + seconds(ready) + " (hub, 4 witness JVMs, 12 paths OK); streak " + STREAK
                + ", probe interval " + PROBE_INTERVAL.toMillis() + " ms, probe timeout " + PROBE_TIMEOUT.toMillis()
                + " ms, report interval " + REPORT_INTERVAL.toMillis() + " ms: bound " + seconds(BOUND));
    }

    /** Every step runs whatever the ones before it did; the first failure is thrown at the end. */
    @AfterAll
    void stopFleet() throws Exception {
        List<Exception> failures = new ArrayList<>();
        faults.forEach(fault -> quietly(failures, fault::close));
        if (lab != null) {
            lab.namespaces()
                    .forEach(namespace -> quietly(failures, () -> {
                        List<String> left = NetworkFault.deleteLeftovers(namespace);
                        if (!left.isEmpty()) {
                            print("deleted fault tables left in " + namespace + ": " + left);
                        }
                    }));
        }
        witnesses.forEach(witness -> quietly(failures, witness::close));
        if (channel != null) {
            channel.shutdownNow();
        }
        if (hub != null) {
            quietly(failures, hub::close);
        }
        if (target != null) {
            target.stop(0);
        }
        if (!summary.isEmpty()) {
            print("summary (bound " + seconds(BOUND) + "):");
            summary.forEach(line -> print("  " + line));
        }
        if (!failures.isEmpty()) {
            failures.subList(1, failures.size()).forEach(failures.get(0)::addSuppressed);
            throw failures.get(0);
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void quietly(List<Exception> failures, Step step) {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            failures.add(e instanceof Exception exception ? exception : new IllegalStateException(e));
        }
    }

    @Test
    @Order(1)
    void fleetWhenNothingIsCutThenEveryoneReachesEveryoneAndEveryRouteServesBoth() {
        GetMeshResponse mesh = mesh();
        assertThat(mesh.getServersList()).extracting(ServerStatus::getStatus).containsOnly(MeshStatus.MESH_STATUS_OK);
        assertThat(mesh.getWitnessesList()).allSatisfy(witness -> {
            assertThat(witness.getReliable()).isTrue();
            assertThat(witness.getNeighbours()).isEqualTo(3);
        });
        assertThat(witness(mesh, "w" + CHECKER).getChecker()).isTrue();
        assertThat(mesh.getPathsList())
                .hasSize(12)
                .allSatisfy(path -> assertThat(path.getLastSuccess()).isTrue());
        assertThat(route("eu").getServersList()).containsExactly("s1", "s2");
        assertThat(route("world").getServersList()).containsExactly("s3", "s4");
        assertVerdicts(HealthState.HEALTH_STATE_HEALTHY);
    }

    @Test
    @Order(2)
    void serverWhenCutOffFromTwoSitesThenLeavesRotationWithinTheBoundAndComesBack() throws InterruptedException {
        awaitHealed("before the two-site cut");
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "two-site cut of s4 (w1/de and w2/nl cannot reach it)",
                dropIncoming(
                        namespace(4),
                        "ip saddr { " + address(1) + ", " + address(2) + " } tcp dport " + lab.entryPort()))) {
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s4 out of rotation",
                    mesh -> !server(mesh, "s4").getInRotation(),
                    othersOk("s4"));

            ServerStatus s4 = server(mesh(), "s4");
            assertThat(s4.getStatus()).isEqualTo(MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS);
            assertThat(s4.getVoters()).isEqualTo(2);
            assertThat(s4.getReason())
                    .startsWith("cannot reach s4/main: w1 (site de) streak ")
                    .contains(", w2 (site nl) streak ")
                    .doesNotContain("w3", "w4");
            assertThat(route("world").getServersList()).containsExactly("s3");
            awaitVerdict("s4/main", HealthState.HEALTH_STATE_UNHEALTHY, false);
            assertThat(health("s4/main")).isEqualTo(ServingStatus.NOT_SERVING);

            Duration healed = heal(cut);
            assertThat(route("world").getServersList()).containsExactly("s3", "s4");
            record(cut, "s4 UNREACHABLE_FROM_SERVERS(2), out of rotation, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(3)
    void entryPointWhenCutOneWayThenExactlyItIsPairCutAndNobodyLeavesRotation() throws InterruptedException {
        awaitHealed("before the one-way cut");
        long start = System.nanoTime();
        try (NetworkFault cut = fault(
                "one-way cut s2 -> s1 (w2 cannot reach s1/main; w1 still reaches s2/main)",
                dropIncoming(namespace(1), "ip saddr " + address(2) + " tcp dport " + lab.entryPort()))) {
            Consumer<GetMeshResponse> invariant = nobodyRemovedMarksOnlyOn(Set.of("s1"));
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s1/main marked PAIR_CUT",
                    mesh -> entryPoint(mesh, "s1").getMarksList().equals(List.of("PAIR_CUT")),
                    invariant);
            hold(HOLD, "one-way cut s2 -> s1", mesh -> {
                invariant.accept(mesh);
                assertThat(entryPoint(mesh, "s1").getMarksList()).containsExactly("PAIR_CUT");
                assertThat(path(mesh, "w1", "s2").getLastSuccess())
                        .as("w1 -> s2/main, the other way")
                        .isTrue();
            });

            GetMeshResponse mesh = mesh();
            assertThat(entryPoint(mesh, "s1").getReason())
                    .startsWith("pair cut: server s2 (witness w2) cannot reach" + " s1/main");
            assertThat(route("eu").getServersList())
                    .as("the pair-cut server ranks last")
                    .containsExactly("s2", "s1");
            awaitVerdict("s1/main", HealthState.HEALTH_STATE_DEGRADED, true);
            assertThat(health("s1/main")).isEqualTo(ServingStatus.SERVING);
            assertThat(observed("s2/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);

            Duration healed = heal(cut);
            record(cut, "s1/main PAIR_CUT (only it), nobody removed, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(4)
    void pairWhenCutBothWaysThenBothEntryPointsArePairCutAndNobodyLeavesRotation() throws InterruptedException {
        awaitHealed("before the two-way cut");
        long start = System.nanoTime();
        String port = " tcp dport " + lab.entryPort();
        try (NetworkFault cut = fault(
                "two-way cut s1 <-> s2",
                dropIncoming(namespace(1), "ip saddr " + address(2) + port),
                dropIncoming(namespace(2), "ip saddr " + address(1) + port))) {
            Consumer<GetMeshResponse> invariant = nobodyRemovedMarksOnlyOn(Set.of("s1", "s2"));
            Duration detected = until(
                    start,
                    PATIENCE,
                    "s1/main and s2/main marked PAIR_CUT",
                    mesh -> entryPoint(mesh, "s1").getMarksCount() == 1
                            && entryPoint(mesh, "s2").getMarksCount() == 1,
                    invariant);
            hold(HOLD, "two-way cut s1 <-> s2", invariant);

            GetMeshResponse mesh = mesh();
            assertThat(entryPoint(mesh, "s1").getMarksList()).containsExactly("PAIR_CUT");
            assertThat(entryPoint(mesh, "s2").getMarksList()).containsExactly("PAIR_CUT");
            assertThat(entryPoint(mesh, "s1").getReason())
                    .startsWith("pair cut: server s2 (witness w2) cannot reach" + " s1/main");
            assertThat(entryPoint(mesh, "s2").getReason())
                    .startsWith("pair cut: server s1 (witness w1) cannot reach" + " s2/main");
            assertThat(route("eu").getServersList()).containsExactly("s1", "s2");
            assertThat(route("eu").getPanic()).isFalse();
            awaitVerdict("s1/main", HealthState.HEALTH_STATE_DEGRADED, true);
            awaitVerdict("s2/main", HealthState.HEALTH_STATE_DEGRADED, true);

            Duration healed = heal(cut);
            record(cut, "s1/main and s2/main PAIR_CUT, nobody removed, in " + bounded(detected), healed, detected);
        }
    }

    @Test
    @Order(5)
    void witnessWhenItsOutgoingPathBreaksThenItIsUnreliableAndRemovesNobody() throws InterruptedException {
        awaitHealed("before w4's outgoing path breaks");
        long start = System.nanoTime();
        try (NetworkFault broken = fault(
                "w4's outgoing path broken (s4 cannot open connections to s1-s3; its reports"
                        + " to the hub and the others' probes of s4 still pass)",
                dropOutgoing(
                        namespace(4),
                        "ip daddr { " + address(1) + ", " + address(2) + ", " + address(3) + " } tcp dport "
                                + lab.entryPort()))) {
            Set<String> transientMarks = new LinkedHashSet<>();
            Consumer<GetMeshResponse> nobodyRemoved = mesh -> {
                assertThat(mesh.getServersList())
                        .as("servers while w4's outgoing path is broken")
                        .allSatisfy(server -> {
                            assertThat(server.getInRotation()).isTrue();
                            assertThat(server.getStatus()).isEqualTo(MeshStatus.MESH_STATUS_OK);
                        });
                mesh.getServersList().stream()
                        .filter(server -> server.getEntryPoints(0).getMarksCount() > 0)
                        .forEach(server -> transientMarks.add(server.getName()));
            };
            Duration detected = until(
                    start,
                    PATIENCE,
                    "w4 flagged unreliable",
                    mesh -> {
                        WitnessStatus w4 = witness(mesh, "w4");
                        return !w4.getReliable() && w4.getShare() == 1.0;
                    },
                    nobodyRemoved);
            hold(HOLD, "w4's outgoing path broken", mesh -> {
                nobodyRemoved.accept(mesh);
                assertThat(witness(mesh, "w4").getReliable()).isFalse();
                assertThat(mesh.getServersList())
                        .allSatisfy(
                                server -> assertThat(server.getEntryPoints(0).getMarksList())
                                        .as(server.getName() + "/main marks")
                                        .isEmpty());
            });

            GetMeshResponse mesh = mesh();
            WitnessStatus w4 = witness(mesh, "w4");
            assertThat(w4.getNeighbours()).isEqualTo(3);
            long reportAgeMillis = System.currentTimeMillis()
                    - w4.getLastReportTime().getSeconds() * 1000
                    - w4.getLastReportTime().getNanos() / 1_000_000;
            assertThat(reportAgeMillis)
                    .as("age of w4's last report (its reports still arrive)")
                    .isLessThan(REPORT_INTERVAL.multipliedBy(2).toMillis());
            for (String other : List.of("w1", "w2", "w3")) {
                assertThat(path(mesh, other, "s4").getLastSuccess())
                        .as(other + " -> s4/main")
                        .isTrue();
            }
            List<PathStatus> failing = mesh.getPathsList().stream()
                    .filter(path -> path.getWitness().equals("w4"))
                    .toList();
            assertThat(failing)
                    .hasSize(3)
                    .allSatisfy(path -> assertThat(path.getFailures()).isGreaterThanOrEqualTo(STREAK));
            assertVerdicts(HealthState.HEALTH_STATE_HEALTHY);

            Duration healed = heal(broken);
            record(
                    broken,
                    "w4 UNRELIABLE (share 1.0), nobody removed, in " + bounded(detected) + "; its probes"
                            + " failed with "
                            + failing.get(0).getLastErrorKind().name().replace("PROBE_ERROR_KIND_", "")
                            + "; PAIR_CUT seen "
                            + (transientMarks.isEmpty()
                                    ? "never"
                                    : "briefly on " + transientMarks + " while w4's streaks were reaching " + STREAK
                                            + " one after the other"),
                    healed,
                    detected);
        }
    }

    @Test
    @Order(6)
    void serverWhenACheckerIsCutFromItThenBlockedOnlyWhileItsRouteHasAnother() throws InterruptedException {
        awaitHealed("before the checker cut");
        String port = " tcp dport " + lab.entryPort();
        long start = System.nanoTime();
        try (NetworkFault checkerCut =
                fault("checker w3 cut from s2", dropIncoming(namespace(2), "ip saddr " + address(CHECKER) + port))) {
            Duration blocked = until(
                    start,
                    PATIENCE,
                    "s2 BLOCKED and out of rotation",
                    mesh -> {
                        ServerStatus s2 = server(mesh, "s2");
                        return s2.getStatus() == MeshStatus.MESH_STATUS_BLOCKED && !s2.getInRotation();
                    },
                    othersOk("s2"));
            ServerStatus s2 = server(mesh(), "s2");
            assertThat(s2.getReason()).startsWith("checker cannot reach s2/main: w3 (site fr) streak ");
            assertThat(s2.getVoters()).isEqualTo(1);
            assertThat(route("eu").getServersList()).containsExactly("s1");
            awaitVerdict("s2/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            // s1, the other server of route eu, becomes unreachable from two sites (nl, us): s2 is all eu has left.
            Consumer<GetMeshResponse> s2StaysBlocked = mesh -> {
                assertThat(server(mesh, "s2").getStatus()).isEqualTo(MeshStatus.MESH_STATUS_BLOCKED);
                for (String other : List.of("s3", "s4")) {
                    assertThat(server(mesh, other).getInRotation())
                            .as(other + " in rotation")
                            .isTrue();
                }
            };
            Duration kept;
            Duration withheld;
            long s1Dropped;
            start = System.nanoTime();
            try (NetworkFault s1Cut = fault(
                    "two-site cut of s1 (w2/nl and w4/us) while s2 is BLOCKED",
                    dropIncoming(namespace(1), "ip saddr { " + address(2) + ", " + address(4) + " }" + port))) {
                kept = until(
                        start,
                        PATIENCE,
                        "s1 out of rotation and BLOCKED s2 kept in rotation",
                        mesh -> server(mesh, "s1").getStatus() == MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS
                                && server(mesh, "s2").getInRotation(),
                        s2StaysBlocked);
                s2 = server(mesh(), "s2");
                assertThat(s2.getReason())
                        .startsWith("checker cannot reach s2/main: w3 (site fr) streak ")
                        .endsWith("; kept: no other server of route eu is usable");
                RouteStatus eu = route("eu");
                assertThat(eu.getServersList()).containsExactly("s2");
                assertThat(eu.getPanic()).isFalse();
                awaitVerdict("s2/main", HealthState.HEALTH_STATE_DEGRADED, true);
                awaitVerdict("s1/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

                // s1 comes back: s2 is withheld again.
                start = System.nanoTime();
                s1Cut.close();
                s1Dropped = s1Cut.dropped();
            }
            withheld = until(
                    start,
                    PATIENCE,
                    "s1 back and s2 withheld again",
                    mesh -> server(mesh, "s1").getStatus() == MeshStatus.MESH_STATUS_OK
                            && server(mesh, "s1").getInRotation()
                            && !server(mesh, "s2").getInRotation(),
                    s2StaysBlocked);
            assertThat(route("eu").getServersList()).containsExactly("s1");
            awaitVerdict("s2/main", HealthState.HEALTH_STATE_UNHEALTHY, false);

            Duration healed = heal(checkerCut);
            record(
                    checkerCut,
                    "s2 BLOCKED, out of rotation, in " + bounded(blocked) + "; s1 cut off from two"
                            + " sites too: s2 kept in rotation in " + bounded(kept) + ", withheld again "
                            + bounded(withheld)
                            + " after s1's cut ended (it dropped " + s1Dropped + " packets)",
                    healed,
                    blocked,
                    kept,
                    withheld);
        }
    }

    @Test
    @Order(7)
    void fleetWhenEveryFaultHasEndedThenEverythingIsAsAtTheStart() throws InterruptedException {
        awaitHealed("after every fault");
        fleetWhenNothingIsCutThenEveryoneReachesEveryoneAndEveryRouteServesBoth();
        assertThat(witnesses)
                .allSatisfy(witness ->
                        assertThat(witness.alive()).as(witness.name()).isTrue());
    }

    // --- the fleet -----------------------------------------------------------------------------------------------

    private int servers() {
        return lab.namespaces().size();
    }

    private String namespace(int server) {
        return lab.namespaces().get(server - 1);
    }

    private String address(int server) {
        return lab.addresses().get(server - 1);
    }

    private Path token(int witness) throws IOException {
        Path file = lab.workDir().resolve("w" + witness + ".token");
        if (!Files.exists(file)) {
            byte[] random = new byte[16];
            ThreadLocalRandom.current().nextBytes(random);
            Files.writeString(file, HexFormat.of().formatHex(random) + "\n");
        }
        return file;
    }

    private NetworkFault fault(String name, NetworkFault.Rule... rules) {
        NetworkFault fault = NetworkFault.apply(name, List.of(rules));
        faults.add(fault);
        return fault;
    }

    /** Ends the fault and returns how long the hub took to serve the whole fleet healthy again (at most the bound). */
    private Duration heal(NetworkFault fault) throws InterruptedException {
        long start = System.nanoTime();
        fault.close();
        Duration healed = until(start, PATIENCE, "healed after " + fault.describe(), this::healthy, mesh -> {});
        assertVerdicts(HealthState.HEALTH_STATE_HEALTHY);
        return healed;
    }

    /**
     * Prints what a fault did and how long the hub took, then holds every measured time (detections, then the
     * healing) to the bound.
     */
    private void record(NetworkFault fault, String verdicts, Duration healed, Duration... detections) {
        String line = fault.describe() + ": " + verdicts + "; healed in " + bounded(healed) + "; nft dropped "
                + fault.dropped() + " packets";
        print(line);
        summary.add(line);
        for (Duration detection : detections) {
            assertThat(detection).as("a verdict of: " + line).isLessThanOrEqualTo(BOUND);
        }
        assertThat(healed).as("healing of: " + line).isLessThanOrEqualTo(BOUND);
    }

    /** E.g. {@code 2.31 s (bound 3.50 s)}. */
    private static String bounded(Duration duration) {
        return seconds(duration) + " (bound " + seconds(BOUND) + ")";
    }

    // --- reading the hub -----------------------------------------------------------------------------------------

    private GetMeshResponse mesh() {
        return MeshServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getMesh(GetMeshRequest.getDefaultInstance());
    }

    private RouteStatus route(String route) {
        return MeshServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .listRoute(ListRouteRequest.newBuilder().setRoute(route).build())
                .getRoute();
    }

    private OutboundObservation observed(String tag) {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getObservation(
                        GetObservationRequest.newBuilder().addTagPrefixes(tag).build())
                .getOutbounds(0);
    }

    private ServingStatus health(String tag) {
        return HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder()
                        .setService("outbound/" + tag)
                        .build())
                .getStatus();
    }

    private static ServerStatus server(GetMeshResponse mesh, String name) {
        return mesh.getServersList().stream()
                .filter(server -> server.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no server " + name + " in " + describe(mesh)));
    }

    private static EntryPointStatus entryPoint(GetMeshResponse mesh, String server) {
        return server(mesh, server).getEntryPoints(0);
    }

    private static WitnessStatus witness(GetMeshResponse mesh, String name) {
        return mesh.getWitnessesList().stream()
                .filter(witness -> witness.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no witness " + name + " in " + describe(mesh)));
    }

    private static PathStatus path(GetMeshResponse mesh, String witness, String server) {
        return mesh.getPathsList().stream()
                .filter(path ->
                        path.getWitness().equals(witness) && path.getServer().equals(server))
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("no path " + witness + " -> " + server + " in " + describe(mesh)));
    }

    /** Every server OK in rotation and unmarked, every witness reliable, all 12 paths' last probe a success. */
    private boolean healthy(GetMeshResponse mesh) {
        return mesh.getServersCount() == servers()
                && mesh.getServersList().stream()
                        .allMatch(server -> server.getStatus() == MeshStatus.MESH_STATUS_OK
                                && server.getInRotation()
                                && server.getEntryPoints(0).getMarksCount() == 0)
                && mesh.getWitnessesList().stream().allMatch(WitnessStatus::getReliable)
                && mesh.getPathsCount() == servers() * (servers() - 1)
                && mesh.getPathsList().stream().allMatch(path -> path.getLastSuccess() && path.getFailures() == 0);
    }

    private void awaitHealed(String when) throws InterruptedException {
        until(System.nanoTime(), Duration.ofSeconds(30), "a healthy fleet " + when, this::healthy, mesh -> {});
    }

    /** The servers other than {@code except} stay OK, unmarked and in rotation. */
    private static Consumer<GetMeshResponse> othersOk(String except) {
        return mesh -> mesh.getServersList().stream()
                .filter(server -> !server.getName().equals(except))
                .forEach(server -> {
                    assertThat(server.getStatus())
                            .as(server.getName() + " status")
                            .isEqualTo(MeshStatus.MESH_STATUS_OK);
                    assertThat(server.getInRotation())
                            .as(server.getName() + " in rotation")
                            .isTrue();
                });
    }

    /** Every server OK and in rotation; entry points other than those of {@code marked} never marked. */
    private static Consumer<GetMeshResponse> nobodyRemovedMarksOnlyOn(Set<String> marked) {
        return mesh -> mesh.getServersList().forEach(server -> {
            assertThat(server.getStatus()).as(server.getName() + " status").isEqualTo(MeshStatus.MESH_STATUS_OK);
            assertThat(server.getInRotation())
                    .as(server.getName() + " in rotation")
                    .isTrue();
            if (!marked.contains(server.getName())) {
                assertThat(server.getEntryPoints(0).getMarksList())
                        .as(server.getName() + "/main marks")
                        .isEmpty();
            }
        });
    }

    private void awaitVerdict(String tag, HealthState verdict, boolean alive) {
        await().atMost(Duration.ofSeconds(2)).pollInterval(POLL).untilAsserted(() -> {
            OutboundObservation observation = observed(tag);
            assertThat(observation.getVerdict()).as(tag + " verdict").isEqualTo(verdict);
            assertThat(observation.getAlive()).as(tag + " alive").isEqualTo(alive);
        });
    }

    private void assertVerdicts(HealthState verdict) {
        for (int n = 1; n <= servers(); n++) {
            awaitVerdict("s" + n + "/main", verdict, true);
            assertThat(health("s" + n + "/main")).isEqualTo(ServingStatus.SERVING);
        }
    }

    /**
     * Polls the hub every 25 ms from {@code startNanos} until {@code done}; {@code invariant} must hold in every
     * sample. Returns the time from {@code startNanos} to the answer that showed {@code done} (measured when that
     * answer arrived, so it includes the call).
     *
     * @throws AssertionError when {@code limit} passes first (with the hub's whole view), a sample breaks the
     *     invariant, or a witness exits (with its log)
     */
    private Duration until(
            long startNanos,
            Duration limit,
            String what,
            Predicate<GetMeshResponse> done,
            Consumer<GetMeshResponse> invariant) {
        AtomicLong reachedAt = new AtomicLong();
        AtomicReference<GetMeshResponse> last = new AtomicReference<>();
        try {
            await().pollDelay(Duration.ZERO)
                    .pollInterval(POLL)
                    .atMost(Duration.ofNanos(
                            Math.max(POLL.toNanos(), limit.toNanos() - (System.nanoTime() - startNanos))))
                    .until(() -> {
                        GetMeshResponse mesh = mesh();
                        long elapsed = System.nanoTime() - startNanos;
                        last.set(mesh);
                        try {
                            invariant.accept(mesh);
                        } catch (AssertionError e) {
                            throw new AssertionError(
                                    "while waiting for " + what + ", after "
                                            + seconds(Duration.ofNanos(elapsed)) + ": " + e.getMessage()
                                            + "\nthe hub says:\n" + describe(mesh),
                                    e);
                        }
                        for (WitnessProcess witness : witnesses) {
                            if (!witness.alive()) {
                                throw new AssertionError(
                                        "witness exited while waiting for " + what + ": " + witness.describeWithLog());
                            }
                        }
                        reachedAt.set(elapsed);
                        return done.test(mesh);
                    });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    what + ": not within " + seconds(limit) + "; the hub says:\n"
                            + (last.get() == null ? "(no answer)" : describe(last.get())),
                    e);
        }
        return Duration.ofNanos(reachedAt.get());
    }

    /** Samples the hub every 25 ms for {@code duration}; {@code invariant} must hold in each sample. */
    private void hold(Duration duration, String what, Consumer<GetMeshResponse> invariant) {
        long start = System.nanoTime();
        until(
                start,
                duration.plusSeconds(1),
                what + " held for " + seconds(duration),
                mesh -> System.nanoTime() - start >= duration.toNanos(),
                invariant);
    }

    /** The hub's view in a few lines, for failure messages. */
    private static String describe(GetMeshResponse mesh) {
        StringBuilder text = new StringBuilder();
        for (ServerStatus server : mesh.getServersList()) {
            text.append("  ")
                    .append(server.getName())
                    .append(' ')
                    .append(server.getStatus().name().replace("MESH_STATUS_", ""))
                    .append(server.getInRotation() ? " in rotation" : " OUT of rotation");
            if (!server.getReason().isEmpty()) {
                text.append(" (").append(server.getReason()).append(')');
            }
            server.getEntryPointsList().stream()
                    .filter(entry -> entry.getMarksCount() > 0)
                    .forEach(entry -> text.append("; ")
                            .append(entry.getTag())
                            .append(' ')
                            .append(entry.getMarksList())
                            .append(" (")
                            .append(entry.getReason())
                            .append(')'));
            text.append('\n');
        }
        for (WitnessStatus witness : mesh.getWitnessesList()) {
            text.append("  ")
                    .append(witness.getName())
                    .append(" site ")
                    .append(witness.getSite())
                    .append(witness.getChecker() ? " checker" : "")
                    .append(witness.getReliable() ? " reliable" : " UNRELIABLE")
                    .append(String.format(
                            Locale.ROOT, " share %.2f of %d", witness.getShare(), witness.getNeighbours()))
                    .append(
                            witness.hasLastReportTime()
                                    ? ", last report "
                                            + Instant.ofEpochSecond(
                                                    witness.getLastReportTime().getSeconds(),
                                                    witness.getLastReportTime().getNanos())
                                    : ", never reported")
                    .append('\n');
        }
        for (PathStatus path : mesh.getPathsList()) {
            if (!path.getLastSuccess() || path.getFailures() > 0) {
                text.append("  ")
                        .append(path.getWitness())
                        .append(" -> ")
                        .append(path.getServer())
                        .append('/')
                        .append(path.getEntryPoint())
                        .append(" failures ")
                        .append(path.getFailures())
                        .append(' ')
                        .append(path.getLastErrorKind().name())
                        .append(": ")
                        .append(path.getLastError())
                        .append('\n');
            }
        }
        mesh.getRoutesList()
                .forEach(route -> text.append("  route ")
                        .append(route.getRoute())
                        .append(' ')
                        .append(route.getServersList())
                        .append(route.getPanic() ? " PANIC" : "")
                        .append('\n'));
        return text.toString();
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
    }

    private static void print(String line) {
        System.out.println("mesh-lab: " + line);
    }
}
