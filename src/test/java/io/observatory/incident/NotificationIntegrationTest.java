package io.observatory.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.ObservatoryApplication;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.NotificationReceivers;
import io.observatory.testing.RecordingHttpServer;
import io.observatory.testing.TestTarget;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service tells of an outbound's outage and its end through real receivers that are not ours: an SMTP server
 * (Debian's aiosmtpd) requiring STARTTLS and a login, a webhook receiver that answers 503 for a while, and Debian's
 * Alertmanager routing our alerts to its own webhook receiver.
 */
@ExtendWith(OutputCaptureExtension.class)
class NotificationIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SECRET = "webhook-s3cret";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private final List<AutoCloseable> started = new ArrayList<>();
    private int targetPort;
    private TestTarget target;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : reversed(started)) {
            closeable.close();
        }
        if (target != null) {
            target.close();
        }
    }

    @Test
    void outboundWhenItFailsAndRecoversThenEmailWebhookAndAlertmanagerTellBoth(CapturedOutput output) throws Exception {
        NotificationReceivers receivers = NotificationReceivers.start(dir, true);
        started.add(receivers);
        RecordingHttpServer webhook = RecordingHttpServer.start();
        started.add(webhook);
        targetPort = ClosedPort.find();
        target = TestTarget.httpOn(targetPort);
        List<String> args = new ArrayList<>(List.of(
                "--spring.grpc.server.port=0",
                "--server.port=0",
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("observatory.db"),
                "--observatory.outbounds[0].tag=a",
                "--observatory.outbounds[0].protocol=direct",
                "--observatory.standard.subject-selector[0]=a",
                "--observatory.standard.probe-url=http://127.0.0.1:" + targetPort + "/",
                "--observatory.standard.probe-interval=200ms",
                "--observatory.standard.timeout=1s",
                "--observatory.notifications.group-wait=200ms",
                "--observatory.notifications.webhooks[0].name=ops",
                "--observatory.notifications.webhooks[0].url=" + webhook.url() + "/hook",
                "--observatory.notifications.webhooks[0].secret=" + SECRET));
        args.addAll(receivers.serviceArgs());
        ConfigurableApplicationContext service =
                new SpringApplicationBuilder(ObservatoryApplication.class).run(args.toArray(String[]::new));
        started.add(service::close);
        webhook.answer(503);

        target.close();
        target = null;
        MimeMessage opened = await().atMost(WAIT)
                .until(receivers::messages, list -> list.size() == 1)
                .get(0);
        await().atMost(WAIT).until(() -> webhook.attempts() >= 2);
        webhook.answer(200);
        await().atMost(WAIT).until(() -> webhook.requests().size() == 1);
        await().atMost(WAIT)
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"firing\"")));
        target = TestTarget.httpOn(targetPort);
        MimeMessage resolved = await().atMost(WAIT)
                .until(receivers::messages, list -> list.size() == 2)
                .get(1);
        await().atMost(WAIT).until(() -> webhook.requests().size() == 2);
        await().atMost(WAIT)
                .until(() -> receivers.alertmanagerReceiver().requests().stream()
                        .anyMatch(request -> request.body().contains("\"status\":\"resolved\"")));

        assertThat(opened.getSubject()).isEqualTo("[Observatory] opened: outbound/a UNHEALTHY");
        assertThat(opened.getAllRecipients()).extracting(Object::toString).containsExactly("oncall@example.test");
        assertThat(parts(opened)).containsExactly("text/plain", "text/html");
        assertThat(resolved.getSubject()).isEqualTo("[Observatory] resolved: outbound/a UNHEALTHY");
        assertThat(receivers.envelope(1)).startsWith("observatory@example.test\n");

        RecordingHttpServer.Request first = webhook.requests().get(0);
        JsonNode notice = JSON.readTree(first.body()).get("notice").get(0);
        assertThat(notice.get("change").asString()).isEqualTo("opened");
        assertThat(notice.get("incident").get("subject").asString()).isEqualTo("outbound/a");
        assertThat(first.header("x-observatory-signature")).isEqualTo("sha256=" + hmac(first.body()));
        assertThat(JSON.readTree(webhook.requests().get(1).body())
                        .get("notice")
                        .get(0)
                        .get("change")
                        .asString())
                .isEqualTo("resolved");
        assertThat(output.getOut())
                .as("the webhook's outage logged once, and its end")
                .containsOnlyOnce("ops: cannot deliver (HTTP 503")
                .contains("ops: delivering again after");

        JsonNode firing = receivers.alertmanagerReceiver().requests().stream()
                .map(request -> JSON.readTree(request.body()))
                .filter(body -> body.get("status").asString().equals("firing"))
                .findFirst()
                .orElseThrow();
        JsonNode labels = firing.get("alerts").get(0).get("labels");
        assertThat(labels.get("alertname").asString()).isEqualTo("ObservatoryUnhealthy");
        assertThat(labels.get("subject").asString()).isEqualTo("outbound/a");
        assertThat(labels.get("severity").asString()).isEqualTo("critical");
    }

    private static List<AutoCloseable> reversed(List<AutoCloseable> list) {
        List<AutoCloseable> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    /** The content types of the message's text parts, in order, however deeply nested. */
    private static List<String> parts(MimeMessage message) throws Exception {
        List<String> types = new ArrayList<>();
        collect(message.getContent(), types);
        return types;
    }

    private static void collect(Object content, List<String> types) throws Exception {
        if (content instanceof Multipart multipart) {
            for (int i = 0; i < multipart.getCount(); i++) {
                BodyPart part = multipart.getBodyPart(i);
                if (part.getContent() instanceof Multipart nested) {
                    collect(nested, types);
                } else {
                    types.add(part.getContentType().split(";")[0].strip());
                }
            }
        }
    }

    private static String hmac(String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    }
}
