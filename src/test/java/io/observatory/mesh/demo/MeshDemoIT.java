package io.observatory.mesh.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.observatory.ObservatoryApplication;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.api.v1.MeshStatus;
import io.observatory.mesh.api.v1.ServerStatus;
import io.observatory.mesh.api.v1.WatchMeshRequest;
import io.observatory.mesh.api.v1.WitnessStatus;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.NotificationReceivers;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * The mesh demo as its README section promises: started as a user starts it (profile {@code mesh-demo}), within one
 * telling of its story every status appears in {@code WatchMesh} — UNREACHABLE_FROM_SERVERS, PAIR_CUT, an UNRELIABLE
 * witness with the lone server's marks it shows, SERVER_UNAVAILABLE, NO_DATA, BLOCKED — and heals, and
 * {@code /actuator/observatory} carries the mesh. Its incidents are told as the demo's configuration says, here to real
 * receivers on other ports: the BLOCKED scene's e-mail reaches an SMTP server (aiosmtpd) naming the checker, the server
 * and the suggestion to change its IP address, its alert reaches Alertmanager and resolves when the scene ends, and the
 * demo's own webhook log shows the deliveries.
 * Runs about 75 s, so it runs with the interop profile ({@code .ci/run}), not with every build.
 */
@ExtendWith(OutputCaptureExtension.class)
class MeshDemoIT {

    @TempDir
    Path dir;

    private NotificationReceivers receivers;
    private ConfigurableApplicationContext demo;
    private ManagedChannel channel;

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.shutdownNow();
        }
        if (demo != null) {
            demo.close();
        }
        if (receivers != null) {
            receivers.close();
        }
    }

    @Test
    void demoWhenStoryPlaysThenEveryStatusAppearsAndHealsWithinOneMinute(CapturedOutput output) throws Exception {
        receivers = NotificationReceivers.start(dir, false);
        List<String> args = new ArrayList<>(List.of(
                "--spring.profiles.active=mesh-demo",
                "--spring.grpc.server.port=0",
                "--server.port=" + LoopbackDaemon.freePort(),
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("observatory.db")));
        args.addAll(receivers.serviceArgs());
        CompletableFuture<Integer> grpcPort = new CompletableFuture<>();
        demo = new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        grpcPort.complete(started.getPort());
                    }
                })
                .run(args.toArray(String[]::new));
        channel = NettyChannelBuilder.forAddress(new InetSocketAddress("127.0.0.1", grpcPort.get(5, TimeUnit.SECONDS)))
                .usePlaintext()
                .build();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<GetMeshResponse> views = new CopyOnWriteArrayList<>();
        MeshServiceGrpc.newStub(channel).watchMesh(WatchMeshRequest.getDefaultInstance(), new StreamObserver<>() {
            @Override
            public void onNext(GetMeshResponse view) {
                views.add(view);
                for (ServerStatus server : view.getServersList()) {
                    seen.add(server.getName() + " " + server.getStatus().name().substring("MESH_STATUS_".length()));
                    server.getEntryPointsList()
                            .forEach(entry -> entry.getMarksList()
                                    .forEach(mark -> seen.add(
                                            entry.getTag() + " " + mark + (entry.getRanked() ? "" : " shown"))));
                }
                for (WitnessStatus witness : view.getWitnessesList()) {
                    seen.add(witness.getName() + (witness.getReliable() ? " RELIABLE" : " UNRELIABLE"));
                }
            }

            @Override
            public void onError(Throwable t) {
                seen.add("stream failed: " + t);
            }

            @Override
            public void onCompleted() {}
        });

        await().atMost(Duration.ofSeconds(75))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(seen)
                        .contains(
                                "s4 UNREACHABLE_FROM_SERVERS",
                                "s2/main PAIR_CUT",
                                "w4 UNRELIABLE",
                                "s1/main PAIR_CUT shown",
                                "s1 SERVER_UNAVAILABLE",
                                "s2 NO_DATA",
                                "s3 BLOCKED"));
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            GetMeshResponse last = views.get(views.size() - 1);
            assertThat(last.getServersList())
                    .extracting(ServerStatus::getStatus)
                    .containsOnly(MeshStatus.MESH_STATUS_OK);
            assertThat(last.getServersList())
                    .allSatisfy(server ->
                            assertThat(server.getEntryPoints(0).getMarksList()).isEmpty());
            assertThat(last.getWitnessesList())
                    .allSatisfy(witness -> assertThat(witness.getReliable()).isTrue());
        });

        MimeMessage blocked = await().atMost(Duration.ofSeconds(15))
                .until(
                        () -> receivers.messages().stream()
                                .filter(message -> subject(message).contains("opened: server/s3 BLOCKED"))
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(NotificationReceivers.text(blocked))
                .as("the e-mail names the checker, the server and what to do")
                .contains("Checker w1 (de) cannot reach s3")
                .contains("Consider changing its IP address.");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"resolved\"")
                                && request.body().contains("\"subject\":\"server/s3\"")
                                && request.body().contains("ObservatoryBlocked")));
        assertThat(output.getOut())
                .as("the demo's webhook log shows the deliveries")
                .contains("demo-webhook")
                .contains("\"subject\":\"server/s3\"");

        String port = demo.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> json = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/observatory"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(json.body())
                .contains("\"mesh\":{\"servers\":[{\"name\":\"s1\",\"route\":\"eu\",\"status\":\"OK\",\"voters\":0")
                .contains("\"status\":\"RELIABLE\"");
    }

    /** The subject, or the failure to read it. */
    private static String subject(MimeMessage message) {
        try {
            return message.getSubject();
        } catch (MessagingException e) {
            return "unreadable: " + e;
        }
    }
}
