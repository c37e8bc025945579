package io.observatory.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.observatory.ObservatoryApplication;
import io.observatory.testing.AdsClient;
import io.observatory.testing.CheckedBackends;
import io.observatory.testing.NamedBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * grpc-java's own proxyless xDS client ({@code grpc-xds}) dialling {@code xds:///backends} with the bootstrap file of
 * {@code docs/examples/grpc-xds-bootstrap.json}, pointed at the service: its calls spread over three real gRPC backends
 * while their health endpoints answer; when one backend's health endpoint fails, its verdict turns UNHEALTHY and the
 * client's calls stop reaching it, although its gRPC server still answers; when it heals, they reach it again. While
 * nothing a client sees changes, no new snapshot is set.
 */
class XdsGrpcClientIntegrationTest {

    @TempDir
    static Path dir;

    private static CheckedBackends backends;
    private static ConfigurableApplicationContext service;
    private static int grpcPort;
    private static ManagedChannel channel;

    @AfterAll
    static void stop() {
        if (channel != null) {
            channel.shutdownNow();
        }
        if (service != null) {
            service.close();
        }
        if (backends != null) {
            backends.close();
        }
    }

    /** Three backends, each with its health endpoint, and the service serving them as the cluster {@code backends}. */
    @BeforeAll
    static void start() throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--observatory.standard.subject-selector[0]=b",
                "--observatory.standard.probe-interval=200ms",
                "--observatory.standard.timeout=1s",
                "--observatory.standard.expected-status=200-299",
                "--observatory.xds.enabled=true",
                "--observatory.xds.clusters[0].name=backends",
                "--observatory.xds.clusters[0].selector[0]=b"));
        backends = CheckedBackends.start(3);
        args.addAll(backends.outboundArgs());
        service = new SpringApplicationBuilder(ObservatoryApplication.class).run(args.toArray(String[]::new));
        grpcPort = Integer.parseInt(
                Objects.requireNonNull(service.getEnvironment().getProperty("local.grpc.server.port"), "gRPC port"));
    }

    @Test
    void grpcClientWhenABackendTurnsUnhealthyThenItsCallsStopReachingItUntilItHeals() throws Exception {
        channel = CheckedBackends.xdsChannel(dir, grpcPort, "backends");

        await().atMost(Duration.ofSeconds(20)).until(() -> calls(30).containsAll(Set.of("b1", "b2", "b3")));
        XdsStreams streams = service.getBean(XdsStreams.class);
        await().atMost(Duration.ofSeconds(5))
                .alias("the client's one ADS stream, in observatory_xds_streams")
                .until(() -> streams.open() == 1);
        XdsPublisher publisher = service.getBean(XdsPublisher.class);
        long snapshots = publisher.snapshots();
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(3))
                .until(() -> publisher.snapshots() == snapshots);

        backends.health(1).answer(503);
        await().atMost(Duration.ofSeconds(15)).until(() -> !calls(30).contains("b2"));
        assertThat(direct(backends.backend(1)))
                .as("b2's gRPC server still answers: the client left it for its verdict")
                .isEqualTo("b2");
        assertThat(calls(60)).containsOnly("b1", "b3");

        backends.health(1).answer(200);
        await().atMost(Duration.ofSeconds(15)).until(() -> calls(30).contains("b2"));
    }

    /**
     * Envoy's requests as {@code docs/examples/envoy.yaml} makes them (its node, its EDS cluster {@code backends} over
     * ADS on the cluster {@code observatory}), state of the world and delta, answered with the three endpoints and their
     * health; the bootstrap itself parses as Envoy's {@code Bootstrap}.
     */
    @Test
    void envoyWhenItAsksAsTheDocsBootstrapSaysThenItGetsTheEndpointsWithTheirHealth() throws Exception {
        Bootstrap envoy = EnvoyBootstrap.read(Path.of("docs/examples/envoy.yaml"));
        Cluster eds = envoy.getStaticResources().getClustersList().stream()
                .filter(cluster -> cluster.getName().equals("backends"))
                .findFirst()
                .orElseThrow();
        assertThat(eds.getType()).isEqualTo(Cluster.DiscoveryType.EDS);
        assertThat(eds.getEdsClusterConfig().getEdsConfig().hasAds()).isTrue();
        String control = envoy.getDynamicResources()
                .getAdsConfig()
                .getGrpcServices(0)
                .getEnvoyGrpc()
                .getClusterName();
        Cluster observatory = envoy.getStaticResources().getClustersList().stream()
                .filter(cluster -> cluster.getName().equals(control))
                .findFirst()
                .orElseThrow();
        assertThat(observatory
                        .getLoadAssignment()
                        .getEndpoints(0)
                        .getLbEndpoints(0)
                        .getEndpoint()
                        .getAddress()
                        .getSocketAddress()
                        .getPortValue())
                .as("the docs point Envoy at the gRPC port")
                .isEqualTo(9090);

        ManagedChannel ads = Grpc.newChannelBuilder("127.0.0.1:" + grpcPort, InsecureChannelCredentials.create())
                .build();
        try {
            String[] addresses = backends.backends().stream()
                    .map(b -> "127.0.0.1:" + b.getPort())
                    .toArray(String[]::new);
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(AdsClient.endpoints(ads, envoy.getNode(), eds.getName()))
                            .containsOnlyKeys(addresses)
                            .containsValues(HealthStatus.HEALTHY)
                            .doesNotContainValue(HealthStatus.UNHEALTHY)
                            .doesNotContainValue(HealthStatus.UNKNOWN));
            assertThat(AdsClient.endpoints(ads, envoy.getNode(), "no-such-cluster"))
                    .as("a name Observatory does not serve: an answer without it, not silence")
                    .isEmpty();

            BlockingQueue<DeltaDiscoveryResponse> delta = new LinkedBlockingQueue<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            StreamObserver<DeltaDiscoveryRequest> deltaRequests = AggregatedDiscoveryServiceGrpc.newStub(ads)
                    .deltaAggregatedResources(AdsClient.collect(delta, failure));
            deltaRequests.onNext(DeltaDiscoveryRequest.newBuilder()
                    .setNode(envoy.getNode())
                    .setTypeUrl(AdsClient.ENDPOINTS)
                    .addResourceNamesSubscribe(eds.getName())
                    .build());
            DeltaDiscoveryResponse deltaResponse = delta.poll(10, TimeUnit.SECONDS);
            assertThat(deltaResponse)
                    .as("a delta answer (stream failure: %s)", failure.get())
                    .isNotNull();
            assertThat(deltaResponse.getResources(0).getName()).isEqualTo("backends");
            assertThat(AdsClient.endpoints(
                            deltaResponse.getResources(0).getResource().unpack(ClusterLoadAssignment.class)))
                    .hasSize(3);
            deltaRequests.onCompleted();
        } finally {
            ads.shutdownNow();
        }
    }

    /** The backends {@code count} calls through the xDS channel reached. */
    private static Set<String> calls(int count) {
        Set<String> reached = new HashSet<>();
        for (int i = 0; i < count; i++) {
            reached.add(NamedBackend.call(channel));
        }
        return reached;
    }

    /** What {@code backend} answers a call made to it directly, without xDS. */
    private static String direct(Server backend) {
        ManagedChannel direct = Grpc.newChannelBuilder(
                        "127.0.0.1:" + backend.getPort(), InsecureChannelCredentials.create())
                .build();
        try {
            return NamedBackend.call(direct);
        } finally {
            direct.shutdownNow();
        }
    }
}
