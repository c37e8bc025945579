package io.observatory.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.observatory.ObservatoryApplication;
import io.observatory.mesh.api.v1.GetMeshRequest;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.PathStatus;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.Socks5TestProxy;
import io.observatory.testing.TestTarget;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * A witness probes VMess entry points exactly as a client of them would, through a proxy core of its own: the hub's
 * fleet gives servers s1 and s2 each one entry point as an Xray outbound object — VMess to a real v2ray server, s2's
 * with an id that server does not know — and witness w3 (on s3, whose entry point is a plain SOCKS5 proxy) runs
 * Debian's v2ray as its core ({@code observatory.core.binary}, no config file). The hub's paths say what w3 saw.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MeshXrayEntryPointTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String VMESS_ID = "6f0c4a1e-2b7d-4c1a-9e55-0d7b1f1c2a10";
    private static final String WRONG_ID = "6f0c4a1e-0000-4c1a-9e55-0d7b1f1c2a10";

    private final TestTarget target = TestTarget.http();
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private LoopbackDaemon vmessServer;
    private Socks5TestProxy s3Entry;
    private ManagedChannel channel;

    @BeforeAll
    void startFleet(@TempDir Path directory) throws Exception {
        int vmessPort = LoopbackDaemon.freePort();
        Path server = Files.writeString(directory.resolve("vmess-server.json"), """
                {"inbounds": [{"listen": "127.0.0.1", "port": %d, "protocol": "vmess",
                               "settings": {"clients": [{"id": "%s", "alterId": 0}]}}],
                 "outbounds": [{"protocol": "freedom"}]}
                """.formatted(vmessPort, VMESS_ID));
        vmessServer = LoopbackDaemon.start(
                "v2ray vmess server",
                List.of("/usr/bin/v2ray", "-config", server.toString()),
                vmessPort,
                directory.resolve("vmess-server.log"));
        s3Entry = Socks5TestProxy.start();
        Path token = Files.writeString(directory.resolve("w3.token"), "token-of-witness-3\n");
        List<String> hub = new ArrayList<>(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--observatory.mesh.hub.report-interval=300ms",
                "--observatory.mesh.hub.no-data-after=5s",
                "--observatory.mesh.hub.probe.probe-interval=200ms",
                "--observatory.mesh.hub.probe.timeout=2s",
                "--observatory.mesh.hub.probe.probe-url=" + target.url("/generate_204"),
                "--observatory.mesh.hub.servers[2].name=s3",
                "--observatory.mesh.hub.servers[2].route=eu",
                "--observatory.mesh.hub.servers[2].entry-points[0].name=main",
                "--observatory.mesh.hub.servers[2].entry-points[0].protocol=socks",
                "--observatory.mesh.hub.servers[2].entry-points[0].address=127.0.0.1",
                "--observatory.mesh.hub.servers[2].entry-points[0].port=" + s3Entry.port(),
                "--observatory.mesh.hub.witnesses[0].name=w3",
                "--observatory.mesh.hub.witnesses[0].site=de",
                "--observatory.mesh.hub.witnesses[0].server=s3",
                "--observatory.mesh.hub.witnesses[0].token-file=" + token));
        for (int i = 0; i < 2; i++) {
            String prefix = "--observatory.mesh.hub.servers[" + i + "].";
            hub.addAll(List.of(
                    prefix + "name=s" + (i + 1),
                    prefix + "route=eu",
                    prefix + "entry-points[0].name=main",
                    prefix + "entry-points[0].protocol=xray",
                    prefix + "entry-points[0].outbound=" + vmess(vmessPort, i == 0 ? VMESS_ID : WRONG_ID)));
        }
        CompletableFuture<Integer> hubPort = new CompletableFuture<>();
        start(hubPort, hub);
        channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", hubPort.get()))
                .usePlaintext()
                .build();
        start(
                new CompletableFuture<>(),
                List.of(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--observatory.mesh.witness.name=w3",
                        "--observatory.mesh.witness.hubs[0]=127.0.0.1:" + hubPort.get(),
                        "--observatory.mesh.witness.token-file=" + token,
                        "--observatory.core.binary=/usr/bin/v2ray",
                        "--observatory.core.work-directory=" + directory.resolve("w3-core")));
    }

    private static String vmess(int port, String id) {
        return ("{\"protocol\": \"vmess\", \"settings\": {\"vnext\": [{\"address\": \"127.0.0.1\", \"port\": %d,"
                        + " \"users\": [{\"id\": \"%s\", \"alterId\": 0}]}]}}")
                .formatted(port, id);
    }

    private void start(CompletableFuture<Integer> grpcPort, List<String> args) {
        services.add(new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        grpcPort.complete(started.getPort());
                    }
                })
                .run(args.toArray(String[]::new)));
    }

    @AfterAll
    void stopFleet() throws IOException {
        if (channel != null) {
            channel.shutdownNow();
        }
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).close();
        }
        if (s3Entry != null) {
            s3Entry.close();
        }
        if (vmessServer != null) {
            vmessServer.close();
        }
        target.close();
    }

    private Optional<PathStatus> path(String server) {
        return MeshServiceGrpc.newBlockingStub(channel)
                .getMesh(GetMeshRequest.getDefaultInstance())
                .getPathsList()
                .stream()
                .filter(path ->
                        path.getWitness().equals("w3") && path.getServer().equals(server))
                .findFirst();
    }

    @Test
    void witnessWhenEntryPointIsAVmessOutboundThenProbesItThroughItsCoreAsAClientWould() {
        await().atMost(WITHIN)
                .until(() -> path("s1").filter(path -> path.getSuccesses() >= 3).isPresent()
                        && path("s2").filter(path -> path.getFailures() >= 3).isPresent());

        PathStatus good = path("s1").orElseThrow();
        assertThat(good.getLastSuccess()).isTrue();
        assertThat(good.getLastRttNanos()).isPositive();
        PathStatus wrongId = path("s2").orElseThrow();
        assertThat(wrongId.getLastSuccess()).isFalse();
        assertThat(wrongId.getLastError())
                .as("the witness reached its core; the VMess server refused the id")
                .contains("s2/main (socks 127.0.0.1:");
        assertThat(target.requestCount("/generate_204")).isPositive();
    }
}
