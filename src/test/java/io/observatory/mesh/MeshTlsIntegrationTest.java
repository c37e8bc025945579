package io.observatory.mesh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.observatory.ObservatoryApplication;
import io.observatory.mesh.api.v1.GetMeshRequest;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WitnessStatus;
import io.observatory.testing.TestPki;
import io.observatory.testing.TestTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * Witnesses reaching a hub over TLS, as the README configures it: the hub serves a PEM SSL bundle with optional
 * client certificates; witness w1 has no token and is recognised by its client certificate's CN, witness w2 presents
 * its bearer token over TLS. Both give the hub the name {@code localhost}, which the hub's certificate names and
 * which the witnesses resolve to every address it has.
 */
class MeshTlsIntegrationTest {

    @TempDir
    Path directory;

    private final TestTarget target = TestTarget.http();
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private ManagedChannel channel;

    @AfterEach
    void stop() {
        if (channel != null) {
            channel.shutdownNow();
        }
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).close();
        }
        target.close();
    }

    private int start(List<String> args) throws Exception {
        CompletableFuture<Integer> port = new CompletableFuture<>();
        services.add(new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        port.complete(started.getPort());
                    }
                })
                .run(args.toArray(String[]::new)));
        return port.get();
    }

    @Test
    void witnessesWhenOneHasACertificateAndOneATokenOverTlsThenTheHubTakesBothReports() throws Exception {
        Path token = Files.writeString(directory.resolve("w2.token"), "token-of-w2");
        String bundle = "--spring.ssl.bundle.pem.observatory-api.";
        String url = target.url("/generate_204");
        int hubPort = start(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--spring.grpc.server.ssl.bundle=observatory-api",
                "--spring.grpc.server.ssl.client-auth=optional",
                bundle + "keystore.certificate=file:" + TestPki.serverCertificate(),
                bundle + "keystore.private-key=file:" + TestPki.serverPrivateKey(),
                bundle + "truststore.certificate=file:" + TestPki.caCertificate(),
                "--observatory.mesh.hub.report-interval=300ms",
                "--observatory.mesh.hub.probe.probe-interval=150ms",
                "--observatory.mesh.hub.servers[0].name=s1",
                "--observatory.mesh.hub.servers[0].route=eu",
                "--observatory.mesh.hub.servers[0].entry-points[0].name=main",
                "--observatory.mesh.hub.servers[0].entry-points[0].protocol=direct",
                "--observatory.mesh.hub.servers[0].entry-points[0].probe-url=" + url,
                "--observatory.mesh.hub.servers[1].name=s2",
                "--observatory.mesh.hub.servers[1].route=eu",
                "--observatory.mesh.hub.servers[1].entry-points[0].name=main",
                "--observatory.mesh.hub.servers[1].entry-points[0].protocol=direct",
                "--observatory.mesh.hub.servers[1].entry-points[0].probe-url=" + url,
                "--observatory.mesh.hub.witnesses[0].name=w1",
                "--observatory.mesh.hub.witnesses[0].site=de",
                "--observatory.mesh.hub.witnesses[0].server=s1",
                "--observatory.mesh.hub.witnesses[0].certificate-subject=balancer",
                "--observatory.mesh.hub.witnesses[1].name=w2",
                "--observatory.mesh.hub.witnesses[1].site=nl",
                "--observatory.mesh.hub.witnesses[1].server=s2",
                "--observatory.mesh.hub.witnesses[1].token-file=" + token));
        List<String> witness = List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--observatory.mesh.witness.hubs[0]=localhost:" + hubPort,
                "--observatory.mesh.witness.hub-tls.enabled=true",
                "--observatory.mesh.witness.hub-tls.trusted-certificates=" + TestPki.caCertificate());
        List<String> w1 = new ArrayList<>(witness);
        w1.addAll(List.of(
                "--observatory.mesh.witness.name=w1",
                "--observatory.mesh.witness.hub-tls.certificate-chain=" + TestPki.clientCertificate(),
                "--observatory.mesh.witness.hub-tls.private-key=" + TestPki.clientPrivateKey()));
        start(w1);
        List<String> w2 = new ArrayList<>(witness);
        w2.addAll(List.of("--observatory.mesh.witness.name=w2", "--observatory.mesh.witness.token-file=" + token));
        start(w2);
        channel = Grpc.newChannelBuilderForAddress(
                        "localhost",
                        hubPort,
                        TlsChannelCredentials.newBuilder()
                                .trustManager(TestPki.caCertificate().toFile())
                                .build())
                .build();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            var mesh = MeshServiceGrpc.newBlockingStub(channel).getMesh(GetMeshRequest.getDefaultInstance());
            assertThat(mesh.getWitnessesList())
                    .allSatisfy(status -> assertThat(status.hasLastReportTime()).isTrue());
            assertThat(mesh.getPathsList())
                    .extracting(path -> path.getWitness() + "->" + path.getServer())
                    .containsExactlyInAnyOrder("w1->s2", "w2->s1");
            assertThat(mesh.getServersList())
                    .extracting(ServerStatus::getStatus)
                    .containsOnly(MeshStatus.MESH_STATUS_OK);
            assertThat(mesh.getWitnessesList())
                    .extracting(WitnessStatus::getName)
                    .containsExactly("w1", "w2");
        });
    }
}
