package io.observatory.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Timestamp;
import io.grpc.Context;
import io.grpc.Context.CancellableContext;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.observatory.ObservatoryApplication;
import io.observatory.api.v1.GetObservationRequest;
import io.observatory.api.v1.HealthState;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.OutboundObservation;
import io.observatory.mesh.api.v1.ExtraMetric;
import io.observatory.mesh.api.v1.GetMeshRequest;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.ListRouteRequest;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.PathStatus;
import io.observatory.mesh.api.v1.ReportRequest;
import io.observatory.mesh.api.v1.ServerMetrics;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WatchMeshRequest;
import io.observatory.mesh.api.v1.WitnessServiceGrpc;
import io.observatory.mesh.witness.MeshWitnessRuntime;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.Socks5TestProxy;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;
import oshi.SystemInfo;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The mesh as a balancer reads it, from real instances in one JVM: two hub replicas and four witnesses, each a whole
 * service on real gRPC ports; each witness probes from its own loopback source address (127.0.0.11-14) through the
 * other servers' real SOCKS5 entry points to a real HTTP target, runs a real TCP self-check, and reports over gRPC with
 * its own bearer token. Faults are made by the entry-point proxies refusing chosen source addresses and by closing a
 * self-checked port; every status is read back through {@code observatory.mesh.v1}, {@code observatory.v1} and
 * grpc.health.v1 on the hub.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MeshIntegrationTest {

    private static final Duration VERDICT_WITHIN = Duration.ofSeconds(20);
    private static final String[] SITES = {"de", "nl", "fr", "us"};

    private Path directory;

    private final TestTarget target = TestTarget.http();
    private final List<Socks5TestProxy> entryPoints = new ArrayList<>();
    private final List<DisposableServer> selfChecked = new ArrayList<>();
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private List<String> hubArgs;
    private ConfigurableApplicationContext hub;
    private ConfigurableApplicationContext replica;
    private final List<ConfigurableApplicationContext> witnesses = new ArrayList<>();
    private int hubPort;
    private int replicaPort;
    private ManagedChannel channel;
    private ManagedChannel replicaChannel;

    @BeforeAll
    void startFleet(@TempDir Path directory) throws Exception {
        this.directory = directory;
        hubArgs = new ArrayList<>(List.of(
                "--server.port=0",
                "--observatory.mesh.hub.report-interval=300ms",
                // No witness stops here: at the default, three report intervals (900 ms), three reports late on a
                // loaded machine would read as NO_DATA.
                "--observatory.mesh.hub.no-data-after=5s",
                "--observatory.mesh.hub.probe.probe-interval=150ms",
                "--observatory.mesh.hub.probe.timeout=1s",
                "--observatory.mesh.hub.probe.probe-url=" + target.url("/generate_204")));
        for (int i = 0; i < 4; i++) {
            Socks5TestProxy proxy = Socks5TestProxy.start();
            entryPoints.add(proxy);
            selfChecked.add(service(0));
            String server = "--observatory.mesh.hub.servers[" + i + "].";
            hubArgs.addAll(List.of(
                    server + "name=s" + (i + 1),
                    server + "route=" + (i < 2 ? "eu" : "world"),
                    server + "entry-points[0].name=main",
                    server + "entry-points[0].protocol=socks",
                    server + "entry-points[0].address=127.0.0.1",
                    server + "entry-points[0].port=" + proxy.port()));
            String witness = "--observatory.mesh.hub.witnesses[" + i + "].";
            hubArgs.addAll(List.of(
                    witness + "name=w" + (i + 1),
                    witness + "site=" + SITES[i],
                    witness + "server=s" + (i + 1),
                    witness + "token-file=" + token(i)));
        }
        CompletableFuture<Integer> hubStarted = new CompletableFuture<>();
        hub = start(hubStarted, withPort(0));
        hubPort = hubStarted.get();
        channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", hubPort))
                .usePlaintext()
                .build();
        replicaPort = ClosedPort.find();
        replica = start(new CompletableFuture<>(), withPort(replicaPort));
        replicaChannel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", replicaPort))
                .usePlaintext()
                .build();
        for (int i = 0; i < 4; i++) {
            witnesses.add(startWitness(i));
        }
    }

    /**
     * Witness {@code w<i+1>} on server {@code s<i+1>}, probing from {@code 127.0.0.1<i+1>}; w1 also reads two series
     * from a real exporter, the hub's own Prometheus endpoint.
     */
    private ConfigurableApplicationContext startWitness(int i) throws IOException {
        List<String> exporter = i > 0
                ? List.of()
                : List.of(
                        "--observatory.mesh.witness.metrics.scrape-url=http://127.0.0.1:"
                                + hub.getEnvironment().getProperty("local.server.port") + "/actuator/prometheus",
                        "--observatory.mesh.witness.metrics.series[0]=observatory_mesh_route_panic",
                        "--observatory.mesh.witness.metrics.series[1]=jvm_threads_live_threads");
        return start(
                new CompletableFuture<>(),
                Stream.concat(
                                exporter.stream(),
                                Stream.of(
                                        "--spring.grpc.server.port=0",
                                        "--server.port=0",
                                        "--observatory.mesh.witness.name=w" + (i + 1),
                                        "--observatory.mesh.witness.checks[0].tcp=127.0.0.1:"
                                                + selfChecked.get(i).port(),
                                        "--observatory.mesh.witness.hubs[0]=127.0.0.1:" + hubPort,
                                        "--observatory.mesh.witness.hubs[1]=127.0.0.1:" + replicaPort,
                                        "--observatory.mesh.witness.token-file=" + token(i),
                                        "--observatory.probe.source-address=127.0.0.1" + (i + 1)))
                        .toList());
    }

    private List<String> withPort(int port) {
        List<String> args = new ArrayList<>(hubArgs);
        args.add("--spring.grpc.server.port=" + port);
        return args;
    }

    private ConfigurableApplicationContext start(CompletableFuture<Integer> grpcPort, List<String> args) {
        ConfigurableApplicationContext service = new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        grpcPort.complete(started.getPort());
                    }
                })
                .run(args.toArray(String[]::new));
        services.add(service);
        return service;
    }

    /** A server's service port: accepts each connection and closes it. */
    private static DisposableServer service(int port) {
        return TcpServer.create()
                .host("127.0.0.1")
                .port(port)
                .handle((in, out) -> out.then())
                .bindNow();
    }

    private String token(int witness) throws IOException {
        Path file = directory.resolve("w" + (witness + 1) + ".token");
        if (!Files.exists(file)) {
            Files.writeString(file, "token-of-witness-" + (witness + 1) + "\n");
        }
        return file.toString();
    }

    @AfterAll
    void stopFleet() {
        if (channel != null) {
            channel.shutdownNow();
            replicaChannel.shutdownNow();
        }
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).close();
        }
        entryPoints.forEach(Socks5TestProxy::close);
        selfChecked.forEach(DisposableServer::disposeNow);
        target.close();
    }

    private GetMeshResponse mesh() {
        return mesh(channel);
    }

    private static GetMeshResponse mesh(ManagedChannel hub) {
        return MeshServiceGrpc.newBlockingStub(hub).getMesh(GetMeshRequest.getDefaultInstance());
    }

    /** What a balancer acts on: each server's status, reason and rotation, each witness's standing. */
    private static List<String> verdicts(GetMeshResponse mesh) {
        List<String> verdicts = new ArrayList<>();
        mesh.getServersList()
                .forEach(server ->
                        verdicts.add(server.getName() + " " + server.getStatus() + " " + server.getInRotation() + " "
                                + server.getEntryPoints(0).getMarksList() + " " + server.getReason()));
        mesh.getWitnessesList()
                .forEach(witness ->
                        verdicts.add(witness.getName() + " " + witness.getReliable() + " " + witness.getShare()));
        return verdicts;
    }

    private ServerStatus server(String name) {
        return mesh().getServersList().stream()
                .filter(server -> server.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private OutboundObservation observed(String tag) {
        return ObservatoryServiceGrpc.newBlockingStub(channel)
                .getObservation(
                        GetObservationRequest.newBuilder().addTagPrefixes(tag).build())
                .getOutbounds(0);
    }

    private ServingStatus health(String tag) {
        return HealthGrpc.newBlockingStub(channel)
                .check(HealthCheckRequest.newBuilder()
                        .setService("outbound/" + tag)
                        .build())
                .getStatus();
    }

    private void awaitAllOk() {
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(mesh().getServersList())
                        .extracting(ServerStatus::getStatus)
                        .containsOnly(MeshStatus.MESH_STATUS_OK));
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(mesh().getServersList())
                        .allSatisfy(
                                server -> assertThat(server.getEntryPoints(0).getMarksList())
                                        .isEmpty()));
    }

    @Test
    @Order(1)
    void fleetWhenEveryoneReachesEveryoneThenAllOkHealthyAndServing() {
        awaitAllOk();
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(mesh().getPathsList()).hasSize(12));

        assertThat(mesh().getWitnessesList()).allSatisfy(witness -> {
            assertThat(witness.getReliable()).isTrue();
            assertThat(witness.getNeighbours()).isEqualTo(3);
        });
        assertThat(mesh().getPathsList())
                .allSatisfy(path -> assertThat(path.getLastSuccess()).isTrue());
        assertThat(observed("s4/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
        assertThat(health("s4/main")).isEqualTo(ServingStatus.SERVING);
        assertThat(MeshServiceGrpc.newBlockingStub(channel)
                        .listRoute(
                                ListRouteRequest.newBuilder().setRoute("world").build())
                        .getRoute()
                        .getServersList())
                .containsExactly("s3", "s4");
    }

    @Test
    @Order(2)
    void fleetWhenWitnessesReportThenEachServersMetricsReachGetMeshTheEndpointAndPrometheus() throws Exception {
        awaitAllOk();
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(mesh().getServersList()).allSatisfy(server -> {
                    assertThat(server.hasMetrics())
                            .as(server.getName() + " has metrics")
                            .isTrue();
                    assertThat(server.getMetrics().hasCpuUsage())
                            .as("a CPU usage from the second report on")
                            .isTrue();
                }));
        long total = new SystemInfo().getHardware().getMemory().getTotal();
        assertThat(mesh().getServersList()).allSatisfy(server -> {
            ServerMetrics metrics = server.getMetrics();
            assertThat(metrics.getMemoryTotalBytes())
                    .as("this machine's memory")
                    .isEqualTo(total);
            assertThat(metrics.getCpuUsage()).isBetween(0.0, 1.0);
            assertThat(metrics.getTcpConnections()).isNotNegative();
            assertThat(metrics.getDiskTotalBytes()).isPositive();
            assertThat(server.getMetricsStale()).isFalse();
            assertThat(server.hasMetricsTime()).isTrue();
        });

        assertThat(server("s1").getMetrics().getExtraList())
                .as("what w1 read from the hub's Prometheus endpoint in its protobuf exposition")
                .extracting(ExtraMetric::getName)
                .contains(
                        "observatory_mesh_route_panic{route=\"eu\"}",
                        "observatory_mesh_route_panic{route=\"world\"}",
                        "jvm_threads_live_threads");
        assertThat(server("s2").getMetrics().getExtraList()).isEmpty();

        String json = http("/actuator/observatory");
        assertThat(json).contains("\"memory_total_bytes\":" + total).contains("\"stale\":false");
        String scrape = http("/actuator/prometheus");
        assertThat(scrape)
                .containsPattern("observatory_mesh_server_cpu_usage\\{route=\"eu\",server=\"s1\"} [0-9.]+")
                .containsPattern(
                        "observatory_mesh_server_memory_available_bytes\\{route=\"eu\",server=\"s1\"} [0-9.E]+")
                .contains("observatory_mesh_server_metrics_stale{route=\"world\",server=\"s4\"} 0.0")
                .containsPattern("observatory_mesh_server_extra\\{route=\"eu\",series=\"jvm_threads_live_threads\","
                        + "server=\"s1\"} [0-9.E]+");
    }

    /** The body of {@code GET path} on the hub's HTTP port, which must answer 200. */
    private String http(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
        return response.body();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        String port = hub.getEnvironment().getProperty("local.server.port");
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(3)
    void cardWhenAServerIsAskedForThenItsPathsBothWaysMetricsAndTransitions() throws Exception {
        awaitAllOk();
        JsonNode card = JsonMapper.builder().build().readTree(http("/status/api/mesh/s1"));

        assertThat(card.get("server").get("name").asString()).isEqualTo("s1");
        assertThat(card.get("caption").asString()).isEqualTo("ok");
        assertThat(card.get("reached_by").findValuesAsString("witness")).containsExactly("w2", "w3", "w4");
        assertThat(card.get("reached_by").findValuesAsString("tag")).containsOnly("s1/main");
        assertThat(card.get("reaches").findValuesAsString("tag")).containsExactly("s2/main", "s3/main", "s4/main");
        assertThat(card.get("reaches").findValuesAsString("witness")).containsOnly("w1");
        assertThat(card.get("reaches").findValues("reached")).allMatch(JsonNode::asBoolean);
        assertThat(card.get("server").get("metrics").get("memory_total_bytes").asLong())
                .isPositive();
        assertThat(card.get("transitions").findValuesAsString("change"))
                .as("s1's transitions since the hub started")
                .anyMatch(change -> change.startsWith("no_data -> ok"))
                .last()
                .asString()
                .startsWith("new -> no_data");

        HttpResponse<String> unknown = get("/status/api/mesh/s9");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("no mesh item \\\"s9\\\"");
    }

    @Test
    @Order(5)
    void fleetWhenTwoSitesCannotReachAServerThenItLeavesRotationAndComesBackWhenTheyCan() {
        awaitAllOk();
        entryPoints.get(3).refuseFrom("127.0.0.11", "127.0.0.12");

        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(server("s4").getStatus())
                        .isEqualTo(MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS));
        assertThat(server("s4").getInRotation()).isFalse();
        assertThat(server("s4").getReason())
                .startsWith("cannot reach s4/main: w1 (site de) streak ")
                .contains("w2 (site nl) streak ");
        assertThat(observed("s4/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(observed("s4/main").getAlive()).isFalse();
        assertThat(health("s4/main")).isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(MeshServiceGrpc.newBlockingStub(channel)
                        .listRoute(
                                ListRouteRequest.newBuilder().setRoute("world").build())
                        .getRoute()
                        .getServersList())
                .containsExactly("s3");
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(verdicts(mesh(replicaChannel))).isEqualTo(verdicts(mesh())));

        entryPoints.get(3).acceptFromAll();

        awaitAllOk();
        assertThat(observed("s4/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
    }

    @Test
    @Order(6)
    void fleetWhenOneWitnessCannotReachAServerThenPairCutDegradedButServing() {
        awaitAllOk();
        entryPoints.get(1).refuseFrom("127.0.0.13");

        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(server("s2").getEntryPoints(0).getMarksList())
                        .containsExactly("PAIR_CUT"));
        assertThat(server("s2").getStatus()).isEqualTo(MeshStatus.MESH_STATUS_OK);
        assertThat(server("s2").getEntryPoints(0).getReason())
                .startsWith("pair cut: server s3 (witness w3) cannot reach s2/main");
        assertThat(observed("s2/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_DEGRADED);
        assertThat(observed("s2/main").getAlive()).isTrue();
        assertThat(health("s2/main")).isEqualTo(ServingStatus.SERVING);

        entryPoints.get(1).acceptFromAll();
        awaitAllOk();
    }

    @Test
    @Order(7)
    void fleetWhenAWitnessCannotReachAnyNeighbourThenItIsUnreliableItsMarksShownAndRemovesNobody() {
        awaitAllOk();
        entryPoints.forEach(proxy -> proxy.refuseFrom("127.0.0.14"));

        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(mesh().getWitnessesList())
                        .filteredOn(witness -> witness.getName().equals("w4"))
                        .singleElement()
                        .satisfies(witness -> {
                            assertThat(witness.getReliable()).isFalse();
                            assertThat(witness.getShare()).isEqualTo(1.0);
                            assertThat(witness.getReason()).isEqualTo("cannot reach any of the 3 neighbours it probes");
                        }));
        assertThat(mesh().getServersList()).extracting(ServerStatus::getStatus).containsOnly(MeshStatus.MESH_STATUS_OK);
        assertThat(mesh().getServersList())
                .filteredOn(server -> !server.getName().equals("s4"))
                .allSatisfy(server -> {
                    assertThat(server.getEntryPoints(0).getMarksList())
                            .as("what w4 sees is shown")
                            .containsExactly("PAIR_CUT");
                    assertThat(server.getEntryPoints(0).getRanked()).isFalse();
                    assertThat(observed(server.getName() + "/main").getVerdict())
                            .as("and ranks nothing")
                            .isEqualTo(HealthState.HEALTH_STATE_HEALTHY);
                });

        entryPoints.forEach(Socks5TestProxy::acceptFromAll);
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(mesh().getWitnessesList())
                        .allSatisfy(witness -> assertThat(witness.getReliable()).isTrue()));
    }

    @Test
    @Order(8)
    void fleetWhenASelfCheckFailsThenServerUnavailableNamingTheCheckAndHealsWhenItPasses() {
        awaitAllOk();
        int port = selfChecked.get(0).port();
        selfChecked.get(0).disposeNow();

        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() ->
                        assertThat(server("s1").getStatus()).isEqualTo(MeshStatus.MESH_STATUS_SERVER_UNAVAILABLE));
        assertThat(server("s1").getReason())
                .startsWith("self-check tcp 127.0.0.1:" + port + " (")
                .endsWith(" fails (reported by w1)");
        assertThat(observed("s1/main").getVerdict()).isEqualTo(HealthState.HEALTH_STATE_UNHEALTHY);

        selfChecked.set(0, service(port));
        awaitAllOk();
    }

    @Test
    @Order(9)
    void replicaWhenRestartedThenCompleteWithinOneReportIntervalOfItsPortOpening() {
        awaitAllOk();
        replica.close();
        services.remove(replica);
        CompletableFuture<Integer> started = new CompletableFuture<>();
        replica = start(started, withPort(replicaPort));
        long open = System.nanoTime();

        await().atMost(VERDICT_WITHIN).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            assertThat(mesh(replicaChannel).getWitnessesList())
                    .allSatisfy(
                            witness -> assertThat(witness.hasLastReportTime()).isTrue());
            assertThat(mesh(replicaChannel).getPathsList()).hasSize(12);
        });
        Duration complete = Duration.ofNanos(System.nanoTime() - open);
        System.out.printf(
                "mesh: a restarted hub replica held every witness's report %d ms after its gRPC port"
                        + " opened (report interval 300 ms)%n",
                complete.toMillis());
        assertThat(complete).isLessThan(Duration.ofMillis(300 + 1_000));
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(verdicts(mesh(replicaChannel))).isEqualTo(verdicts(mesh())));
    }

    @Test
    @Order(10)
    void reportWhenForgedOrUnauthenticatedThenRefusedWithTheRightCodeAndNothingChanges() throws IOException {
        awaitAllOk();
        ReportRequest forged = ReportRequest.newBuilder()
                .setWitness("w2")
                .setProcessStartTime(Timestamp.newBuilder().setSeconds(4_000_000_000L))
                .setSequence(1)
                .addPaths(io.observatory.mesh.api.v1.PathReport.newBuilder()
                        .setServer("s4")
                        .setEntryPoint("main")
                        .setFailures(99))
                .build();
        Metadata asW1 = new Metadata();
        asW1.put(
                Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
                "Bearer " + Files.readString(Path.of(token(0))).strip());

        assertThatThrownBy(() -> WitnessServiceGrpc.newBlockingStub(channel)
                        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(asW1))
                        .report(forged))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo("report for witness w2 with the credential"
                                    + " of witness w1 (expected: witness w1)");
                });
        assertThatThrownBy(() -> WitnessServiceGrpc.newBlockingStub(channel).report(forged))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
        assertThat(server("s4").getStatus()).isEqualTo(MeshStatus.MESH_STATUS_OK);
    }

    @Test
    @Order(11)
    void witnessWhenRestartedDuringAnOutageThenTheServerItVotesAgainstStaysOutOfRotation() {
        awaitAllOk();
        entryPoints.get(3).refuseFrom("127.0.0.11", "127.0.0.12");
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(server("s4").getStatus())
                        .isEqualTo(MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS));
        List<MeshStatus> seen = new CopyOnWriteArrayList<>();
        List<String> ended = new CopyOnWriteArrayList<>();
        CancellableContext watching = Context.current().withCancellation();
        watching.run(() -> MeshServiceGrpc.newStub(channel)
                .watchMesh(WatchMeshRequest.getDefaultInstance(), new StreamObserver<>() {
                    @Override
                    public void onNext(GetMeshResponse view) {
                        view.getServersList().stream()
                                .filter(server -> server.getName().equals("s4"))
                                .forEach(server -> seen.add(server.getStatus()));
                    }

                    @Override
                    public void onError(Throwable error) {
                        ended.add(error.toString());
                    }

                    @Override
                    public void onCompleted() {
                        ended.add("completed");
                    }
                }));
        try {
            await().atMost(VERDICT_WITHIN).until(() -> !seen.isEmpty());
            MeshWitnessRuntime w1 = witnesses.get(0).getBean(MeshWitnessRuntime.class);
            w1.stop();
            int before = failuresOfW1AgainstS4();
            w1.start();

            await().atMost(VERDICT_WITHIN).until(() -> failuresOfW1AgainstS4() >= before + 3);

            assertThat(ended).as("the watch still open").isEmpty();
            assertThat(seen)
                    .as("s4 in every view while w1 restarted")
                    .containsOnly(MeshStatus.MESH_STATUS_UNREACHABLE_FROM_SERVERS);
        } finally {
            watching.cancel(null);
            entryPoints.get(3).acceptFromAll();
        }
        awaitAllOk();
    }

    @Test
    @Order(4)
    void witnessWhenItStopsReportingThenItsServersMetricsTurnStaleAndFreshWhenItReportsAgain() throws Exception {
        awaitAllOk();
        MeshWitnessRuntime w4 = witnesses.get(3).getBean(MeshWitnessRuntime.class);
        w4.stop();
        try {
            await().atMost(VERDICT_WITHIN).untilAsserted(() -> {
                ServerStatus s4 = server("s4");
                assertThat(s4.getStatus()).isEqualTo(MeshStatus.MESH_STATUS_NO_DATA);
                assertThat(s4.getMetricsStale()).isTrue();
                assertThat(s4.getMetrics().getMemoryTotalBytes())
                        .as("the last known values stay")
                        .isPositive();
            });
            assertThat(server("s3").getMetricsStale()).isFalse();
            assertThat(http("/actuator/prometheus"))
                    .contains("observatory_mesh_server_metrics_stale{route=\"world\",server=\"s4\"} 1.0")
                    .contains("observatory_mesh_server_metrics_stale{route=\"world\",server=\"s3\"} 0.0");
        } finally {
            w4.start();
        }
        await().atMost(VERDICT_WITHIN)
                .untilAsserted(() -> assertThat(server("s4").getMetricsStale()).isFalse());
        awaitAllOk();
    }

    /** The failures in a row of w1's path to s4's entry point as the hub holds them. */
    private int failuresOfW1AgainstS4() {
        return mesh().getPathsList().stream()
                .filter(path ->
                        path.getWitness().equals("w1") && path.getServer().equals("s4"))
                .mapToInt(PathStatus::getFailures)
                .findFirst()
                .orElse(0);
    }
}
