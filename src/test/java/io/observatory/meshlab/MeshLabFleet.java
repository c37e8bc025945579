package io.observatory.meshlab;

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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * A fleet of the mesh lab that {@code .ci/mesh-lab} builds (as root): servers s1…sN, each a network namespace with its
 * own address, its microsocks entry point and its witness w1…wN (the service jar run with {@code ip netns exec}, so
 * its probes, self-check and reports leave from that namespace); the hub in this JVM, in the root namespace, on the
 * lab link's root address, where the probe target also listens. The hub reads its fleet from a file of its own, so a
 * test may change the fleet as an operator would ({@link #changeFleet}). Faults are nft drop rules inside the
 * namespaces; every verdict is read from the hub as a balancer reads it ({@code observatory.mesh.v1} GetMesh and
 * ListRoute, {@code observatory.v1} GetObservation, grpc.health.v1), polled every 25 ms, and each detection and
 * healing time is printed and held to the bound of the mesh's design for faults that drop packets: streak × (probe
 * interval + probe timeout) + report interval + 1 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class MeshLabFleet {

    static final int STREAK = 3;
    static final Duration PROBE_INTERVAL = Duration.ofMillis(500);
    static final Duration PROBE_TIMEOUT = Duration.ofMillis(300);
    static final Duration REPORT_INTERVAL = Duration.ofSeconds(1);
    /**
     * How late the hub may serve a fault's verdict or its end: streak × (probe interval + probe timeout) + report
     * interval + 1 s. The faults drop packets, so each failed probe lasts its timeout before the next is scheduled a
     * probe interval later; the design's streak × probe interval + report interval + 1 s holds for refused
     * connections only, and is printed beside each time.
     */
    static final Duration BOUND = PROBE_INTERVAL
            .plus(PROBE_TIMEOUT)
            .multipliedBy(STREAK)
            .plus(REPORT_INTERVAL)
            .plusSeconds(1);
    /** The design's bound for faults that refuse at once: streak × probe interval + report interval + 1 s. */
    static final Duration REFUSAL_BOUND =
            PROBE_INTERVAL.multipliedBy(STREAK).plus(REPORT_INTERVAL).plusSeconds(1);
    /** How long a wait may last before it fails; a time past the bound fails after it has been printed. */
    static final Duration PATIENCE = Duration.ofSeconds(20);
    /** A verdict that must hold, watched this long after it appeared: two more reports of every witness. */
    static final Duration HOLD = REPORT_INTERVAL.multipliedBy(2).plusMillis(200);

    static final Duration STARTUP_LIMIT = Duration.ofSeconds(180);
    static final Duration POLL = Duration.ofMillis(25);
    /** How often the hub checks its fleet file for changes. */
    static final Duration RELOAD_INTERVAL = Duration.ofMillis(200);

    MeshLab lab;
    private HttpServer target;
    private ConfigurableApplicationContext hub;
    private ManagedChannel channel;
    private Path fleetFile;
    /** The fleet the hub was last given. */
    Fleet fleet;

    final List<WitnessProcess> witnesses = new ArrayList<>();
    private final List<NetworkFault> faults = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();

    /**
     * A fleet of the lab: server {@code s<n>} in namespace {@code n} with witness {@code w<n>} on it.
     *
     * @param sites    the site of each witness, w1 first; its length is the fleet's size
     * @param routes   the route of each server, s1 first, as many as sites
     * @param checkers the numbers of the witnesses that are checkers
     * @param perServer with {@code assignment: k-per-server}, the witnesses per server; 0 for the default, full
     */
    record Fleet(List<String> sites, List<String> routes, Set<Integer> checkers, int perServer) {

        /** A fleet whose witnesses all probe every other server. */
        Fleet(List<String> sites, List<String> routes, Set<Integer> checkers) {
            this(sites, routes, checkers, 0);
        }

        Fleet {
            sites = List.copyOf(sites);
            routes = List.copyOf(routes);
            checkers = Set.copyOf(checkers);
            if (sites.size() != routes.size()) {
                throw new IllegalArgumentException("sites " + sites + " and routes " + routes + " differ in length");
            }
        }

        int size() {
            return sites.size();
        }

        /**
         * The paths of the matrix once every witness (w{@code n} on s{@code n}) reported: each server's witnesses, none
         * probing its own; with k per server, k of the others and every checker.
         */
        int paths() {
            int paths = 0;
            for (int server = 1; server <= size(); server++) {
                int checkersElsewhere = checkers.size() - (checkers.contains(server) ? 1 : 0);
                int othersElsewhere = size() - 1 - checkersElsewhere;
                paths += checkersElsewhere + (perServer == 0 ? othersElsewhere : Math.min(perServer, othersElsewhere));
            }
            return paths;
        }
    }

    /** The fleet the hub starts with. */
    abstract Fleet initialFleet();

    /** How many witness processes to start, in namespaces 1 to n: at least the largest fleet's size. */
    abstract int witnessProcesses();

    @BeforeAll
    final void startFleet() throws Exception {
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
        fleetFile = lab.workDir().resolve(getClass().getSimpleName() + "-fleet.yml");
        writeFleet(initialFleet());
        hubArgs.addAll(List.of(
                "--spring.config.additional-location=file:" + fleetFile,
                "--observatory.reload.interval=" + RELOAD_INTERVAL.toMillis() + "ms"));
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

        for (int n = 1; n <= witnessProcesses(); n++) {
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
        print("fleet ready in " + seconds(ready) + " (hub, " + witnessProcesses() + " witness JVMs, "
                + fleet.size() * (fleet.size() - 1) + " paths OK); streak " + STREAK
                + ", probe interval " + PROBE_INTERVAL.toMillis() + " ms, probe timeout " + PROBE_TIMEOUT.toMillis()
                + " ms, report interval " + REPORT_INTERVAL.toMillis() + " ms: bound " + seconds(BOUND));
    }

    /** Every step runs whatever the ones before it did; the first failure is thrown at the end. */
    @AfterAll
    final void stopFleet() throws Exception {
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

    // --- the fleet -----------------------------------------------------------------------------------------------

    int servers() {
        return fleet.size();
    }

    /**
     * Gives the hub {@code next} by rewriting its fleet file, as an operator would, and waits until the hub judges
     * it: every server of it OK, every witness of it reporting with its site and checker flag, every path probed.
     */
    void changeFleet(Fleet next) throws IOException, InterruptedException {
        long start = System.nanoTime();
        writeFleet(next);
        Duration taken = until(
                start,
                Duration.ofSeconds(60),
                "the hub judging the new fleet " + next,
                mesh -> mesh.getWitnessesCount() == next.size()
                        && mesh.getWitnessesList().stream().allMatch(witness -> {
                            int n = Integer.parseInt(witness.getName().substring(1));
                            return witness.getSite().equals(next.sites().get(n - 1))
                                    && witness.getChecker() == next.checkers().contains(n);
                        })
                        && healthy(mesh),
                mesh -> {});
        print("fleet of " + next.size() + " servers (sites " + next.sites() + ", checkers " + next.checkers()
                + ") judged " + seconds(taken) + " after its file was written");
    }

    /** Writes {@code next} to the hub's fleet file (renamed into place, so the hub never reads half of it). */
    void writeFleet(Fleet next) throws IOException {
        StringBuilder yaml = new StringBuilder("observatory:\n  mesh:\n    hub:\n");
        if (next.perServer() > 0) {
            yaml.append("      assignment: k-per-server\n      witnesses-per-server: ")
                    .append(next.perServer())
                    .append('\n');
        }
        yaml.append("      servers:\n");
        for (int n = 1; n <= next.size(); n++) {
            yaml.append("        - name: s").append(n).append('\n');
            yaml.append("          route: ").append(next.routes().get(n - 1)).append('\n');
            yaml.append("          entry-points:\n");
            yaml.append("            - name: main\n              protocol: socks\n");
            yaml.append("              address: ").append(address(n)).append('\n');
            yaml.append("              port: ").append(lab.entryPort()).append('\n');
            yaml.append("              username: '").append(lab.entryUsername()).append("'\n");
            yaml.append("              password: '").append(lab.entryPassword()).append("'\n");
        }
        yaml.append("      witnesses:\n");
        for (int n = 1; n <= next.size(); n++) {
            yaml.append("        - name: w").append(n).append('\n');
            yaml.append("          site: ").append(next.sites().get(n - 1)).append('\n');
            yaml.append("          server: s").append(n).append('\n');
            yaml.append("          checker: ")
                    .append(next.checkers().contains(n))
                    .append('\n');
            yaml.append("          token-file: ").append(token(n)).append('\n');
        }
        Path temporary = fleetFile.resolveSibling(fleetFile.getFileName() + ".tmp");
        Files.writeString(temporary, yaml);
        Files.move(temporary, fleetFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        fleet = next;
    }

    String namespace(int server) {
        return lab.namespaces().get(server - 1);
    }

    String address(int server) {
        return lab.addresses().get(server - 1);
    }

    Path token(int witness) throws IOException {
        Path file = lab.workDir().resolve("w" + witness + ".token");
        if (!Files.exists(file)) {
            byte[] random = new byte[16];
            ThreadLocalRandom.current().nextBytes(random);
            Files.writeString(file, HexFormat.of().formatHex(random) + "\n");
        }
        return file;
    }

    NetworkFault fault(String name, NetworkFault.Rule... rules) {
        NetworkFault fault = NetworkFault.apply(name, List.of(rules));
        faults.add(fault);
        return fault;
    }

    /** Ends the fault and returns how long the hub took to serve the whole fleet healthy again (at most the bound). */
    Duration heal(NetworkFault fault) throws InterruptedException {
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
    void record(NetworkFault fault, String verdicts, Duration healed, Duration... detections) {
        String line = fault.describe() + ": " + verdicts + "; healed in " + bounded(healed) + "; nft dropped "
                + fault.dropped() + " packets";
        print(line);
        summary.add(line);
        for (Duration detection : detections) {
            assertThat(detection).as("a verdict of: " + line).isLessThanOrEqualTo(BOUND);
        }
        assertThat(healed).as("healing of: " + line).isLessThanOrEqualTo(BOUND);
    }

    /** E.g. {@code 2.31 s (bound 4.40 s; 3.50 s for refusals)}. */
    static String bounded(Duration duration) {
        return seconds(duration) + " (bound " + seconds(BOUND) + "; " + seconds(REFUSAL_BOUND) + " for refusals)";
    }

    // --- reading the hub -----------------------------------------------------------------------------------------

    GetMeshResponse mesh() {
        return MeshServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getMesh(GetMeshRequest.getDefaultInstance());
    }

    RouteStatus route(String route) {
        return MeshServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .listRoute(ListRouteRequest.newBuilder().setRoute(route).build())
                .getRoute();
    }

    OutboundObservation observed(String tag) {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getObservation(
                        GetObservationRequest.newBuilder().addTagPrefixes(tag).build())
                .getOutbounds(0);
    }

    ServingStatus health(String tag) {
        return HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder()
                        .setService("outbound/" + tag)
                        .build())
                .getStatus();
    }

    static ServerStatus server(GetMeshResponse mesh, String name) {
        return mesh.getServersList().stream()
                .filter(server -> server.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no server " + name + " in " + describe(mesh)));
    }

    static EntryPointStatus entryPoint(GetMeshResponse mesh, String server) {
        return server(mesh, server).getEntryPoints(0);
    }

    static WitnessStatus witness(GetMeshResponse mesh, String name) {
        return mesh.getWitnessesList().stream()
                .filter(witness -> witness.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no witness " + name + " in " + describe(mesh)));
    }

    static PathStatus path(GetMeshResponse mesh, String witness, String server) {
        return mesh.getPathsList().stream()
                .filter(path ->
                        path.getWitness().equals(witness) && path.getServer().equals(server))
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("no path " + witness + " -> " + server + " in " + describe(mesh)));
    }

    /** Every server OK in rotation and unmarked, every witness reliable, every path's last probe a success. */
    boolean healthy(GetMeshResponse mesh) {
        return mesh.getServersCount() == servers()
                && mesh.getServersList().stream()
                        .allMatch(server -> server.getStatus() == MeshStatus.MESH_STATUS_OK
                                && server.getInRotation()
                                && server.getEntryPoints(0).getMarksCount() == 0)
                && mesh.getWitnessesList().stream().allMatch(WitnessStatus::getReliable)
                && mesh.getPathsCount() == fleet.paths()
                && mesh.getPathsList().stream().allMatch(path -> path.getLastSuccess() && path.getFailures() == 0);
    }

    void awaitHealed(String when) throws InterruptedException {
        until(System.nanoTime(), Duration.ofSeconds(30), "a healthy fleet " + when, this::healthy, mesh -> {});
    }

    /** The servers other than {@code except} stay OK, unmarked and in rotation. */
    static Consumer<GetMeshResponse> othersOk(String except) {
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
    static Consumer<GetMeshResponse> nobodyRemovedMarksOnlyOn(Set<String> marked) {
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

    void awaitVerdict(String tag, HealthState verdict, boolean alive) {
        await().atMost(Duration.ofSeconds(2)).pollInterval(POLL).untilAsserted(() -> {
            OutboundObservation observation = observed(tag);
            assertThat(observation.getVerdict()).as(tag + " verdict").isEqualTo(verdict);
            assertThat(observation.getAlive()).as(tag + " alive").isEqualTo(alive);
        });
    }

    void assertVerdicts(HealthState verdict) {
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
    Duration until(
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
    void hold(Duration duration, String what, Consumer<GetMeshResponse> invariant) {
        long start = System.nanoTime();
        until(
                start,
                duration.plusSeconds(1),
                what + " held for " + seconds(duration),
                mesh -> System.nanoTime() - start >= duration.toNanos(),
                invariant);
    }

    /** The hub's view in a few lines, for failure messages. */
    static String describe(GetMeshResponse mesh) {
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

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
    }

    static void print(String line) {
        System.out.println("mesh-lab: " + line);
    }
}
