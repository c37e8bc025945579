package io.observatory.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.observatory.ObservatoryApplication;
import io.observatory.api.v1.IncidentServiceGrpc;
import io.observatory.api.v1.IncidentState;
import io.observatory.api.v1.ListIncidentsRequest;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.NotificationReceivers;
import io.observatory.testing.RecordingHttpServer;
import io.observatory.testing.TestTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
 * Receivers in trouble: the SMTP server and Alertmanager down when the incident opens, a webhook receiver that hangs.
 * The service keeps judging and serving, each outage is logged once, and every message arrives once its receiver is
 * back; Alertmanager restarted later gets the firing alert again at the next resend.
 */
@ExtendWith(OutputCaptureExtension.class)
class NotificationFaultsIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private NotificationReceivers receivers;
    private RecordingHttpServer webhook;
    private ConfigurableApplicationContext service;
    private ManagedChannel channel;
    private TestTarget target;

    @AfterEach
    void stop() {
        if (channel != null) {
            channel.shutdownNow();
        }
        if (service != null) {
            service.close();
        }
        if (webhook != null) {
            webhook.close();
        }
        if (receivers != null) {
            receivers.close();
        }
        if (target != null) {
            target.close();
        }
    }

    @Test
    void receiversWhenDownOrHangingThenTheServiceServesOnAndEveryMessageArrivesOnceTheyAreBack(CapturedOutput output)
            throws Exception {
        receivers = NotificationReceivers.reserve(dir, false);
        webhook = RecordingHttpServer.start();
        webhook.hang();
        int port = ClosedPort.find();
        target = TestTarget.httpOn(port);
        List<String> args = new ArrayList<>(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("observatory.db"),
                "--observatory.outbounds[0].tag=a",
                "--observatory.outbounds[0].protocol=direct",
                "--observatory.standard.subject-selector[0]=a",
                "--observatory.standard.probe-url=http://127.0.0.1:" + port + "/",
                "--observatory.standard.probe-interval=200ms",
                "--observatory.standard.timeout=1s",
                "--observatory.notifications.group-wait=0s",
                "--observatory.notifications.webhooks[0].name=hanging",
                "--observatory.notifications.webhooks[0].url=" + webhook.url() + "/hook",
                "--observatory.notifications.webhooks[0].timeout=1s"));
        args.addAll(receivers.serviceArgs());
        CompletableFuture<Integer> grpcPort = new CompletableFuture<>();
        service = new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        grpcPort.complete(started.getPort());
                    }
                })
                .run(args.toArray(String[]::new));
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort.get(10, TimeUnit.SECONDS))
                .usePlaintext()
                .build();
        await().atMost(WAIT).until(() -> verdict().equals(Optional.of(HealthState.HEALTHY)));

        target.close();
        target = null;
        await().atMost(WAIT)
                .until(() -> output.getOut().contains("email: cannot deliver")
                        && output.getOut().contains("hanging: cannot deliver")
                        && output.getOut().contains("cannot send 1 alerts"));
        assertThat(IncidentServiceGrpc.newBlockingStub(channel)
                        .listIncidents(ListIncidentsRequest.getDefaultInstance())
                        .getIncidentsList())
                .as("the service serves on")
                .singleElement()
                .satisfies(incident -> assertThat(incident.getSubject()).isEqualTo("outbound/a"));
        receivers.startSmtp();
        receivers.startAlertmanager();
        webhook.release();
        await().atMost(WAIT).until(() -> receivers.messages().size() == 1);
        await().atMost(WAIT).until(() -> changes(webhook).equals(List.of("opened")));
        await().atMost(WAIT)
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"firing\"")));
        target = TestTarget.httpOn(port);
        await().atMost(WAIT).until(() -> receivers.messages().size() == 2);
        await("the held opening (its first attempt timed out, so it may come twice), then the resolution")
                .atMost(WAIT)
                .until(() -> changes(webhook).equals(List.of("opened", "resolved")));
        await().atMost(WAIT)
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"resolved\"")));
        receivers.stopAlertmanager();
        target.close();
        target = null;
        await().atMost(WAIT).until(() -> receivers.messages().size() == 3);
        String second = IncidentServiceGrpc.newBlockingStub(channel)
                .listIncidents(ListIncidentsRequest.newBuilder()
                        .setState(IncidentState.INCIDENT_STATE_OPEN)
                        .build())
                .getIncidents(0)
                .getId();
        receivers.startAlertmanager();

        await("the restarted Alertmanager gets the firing alert at the next resend")
                .atMost(WAIT)
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"firing\"")
                                && request.body().contains(second)));
        assertThat(receivers.messages())
                .extracting(message -> message.getSubject())
                .containsExactly(
                        "[Observatory] opened: outbound/a UNHEALTHY",
                        "[Observatory] resolved: outbound/a UNHEALTHY",
                        "[Observatory] opened: outbound/a UNHEALTHY");
        assertThat(output.getOut())
                .as("each outage logged once when it starts and once when it ends")
                .containsOnlyOnce("email: cannot deliver")
                .containsOnlyOnce("email: delivering again after")
                .containsOnlyOnce("hanging: cannot deliver")
                .containsOnlyOnce("hanging: delivering again after");
    }

    /** The changes the webhook received, in order, each once. */
    private static List<String> changes(RecordingHttpServer webhook) {
        return webhook.requests().stream()
                .map(request -> request.body().contains("\"change\":\"resolved\"") ? "resolved" : "opened")
                .distinct()
                .toList();
    }

    private Optional<HealthState> verdict() {
        return service.getBean(ObservationStore.class).current().get("a").map(OutboundHealth::verdict);
    }
}
