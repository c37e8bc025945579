package io.observatory.incident;

import static io.observatory.testing.Percentiles.millis;
import static io.observatory.testing.Percentiles.percentile;
import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.ObservatoryApplication;
import io.observatory.incident.store.IncidentQuery;
import io.observatory.incident.store.IncidentRepository;
import io.observatory.testing.LoopbackDaemon;
import io.observatory.testing.NotificationReceivers;
import io.observatory.testing.RecordingHttpServer;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mail.javamail.MimeMessageHelper;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How long people wait: the mesh demo (the whole service, profile {@code mesh-demo}, a hub and four witnesses in one
 * process) plays its story {@code benchmark.incident.stories} times (default 3, a minute each) with its incidents told
 * to real receivers on loopback, with {@code group-wait: 0s} so that the figure is the pipeline's own (the demo's
 * 1 s group wait adds exactly that). For each transition: from the writer's judgement (the incident's time) to the
 * e-mail written by the SMTP server (aiosmtpd), and to Alertmanager's notification of the new alert (its webhook,
 * {@code group_wait: 0s}). References in the same run: an e-mail sent straight to the same SMTP server with
 * Spring's mail sender, and an alert POSTed straight to the same Alertmanager.
 */
class IncidentNotificationBenchmarkIT {

    private static final int STORIES = Integer.getInteger("benchmark.incident.stories", 3);
    private static final int REFERENCE_SENDS = 20;
    private static final Pattern ENTRY =
            Pattern.compile("^(OPENED|RESOLVED) .*?$.*?^  incident (\\S+)$", Pattern.MULTILINE | Pattern.DOTALL);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private NotificationReceivers receivers;
    private ConfigurableApplicationContext demo;

    @AfterEach
    void stop() {
        if (demo != null) {
            demo.close();
        }
        if (receivers != null) {
            receivers.close();
        }
    }

    @Test
    void storyWhenToldThenTransitionToEmailAndToAlertmanagerMeasuredBesideDirectSends() throws Exception {
        receivers = NotificationReceivers.start(dir, false);
        List<String> args = new ArrayList<>(List.of(
                "--spring.profiles.active=mesh-demo",
                "--spring.grpc.server.port=0",
                "--server.port=" + LoopbackDaemon.freePort(),
                "--spring.datasource.url=jdbc:sqlite:" + dir.resolve("observatory.db"),
                "--observatory.notifications.group-wait=0s"));
        args.addAll(receivers.serviceArgs());
        demo = new SpringApplicationBuilder(ObservatoryApplication.class).run(args.toArray(String[]::new));
        Instant end = Instant.now().plus(Duration.ofSeconds(60L * STORIES + 10));
        while (Instant.now().isBefore(end)) {
            org.awaitility.Awaitility.await()
                    .pollDelay(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(2))
                    .until(() -> true);
        }
        List<io.observatory.incident.Incident> incidents = demo.getBean(IncidentRepository.class)
                .list(new IncidentQuery("", IncidentQuery.State.ANY, null, null, null, 1000));
        Map<String, io.observatory.incident.Incident> byId = new HashMap<>();
        incidents.forEach(incident -> byId.put(incident.id(), incident));

        List<Long> email = new ArrayList<>();
        List<MimeMessage> messages = receivers.messages();
        for (int i = 0; i < messages.size(); i++) {
            long delivered = receivers.delivered(i + 1).toInstant().toEpochMilli();
            Matcher entry = ENTRY.matcher(NotificationReceivers.text(messages.get(i)));
            while (entry.find()) {
                io.observatory.incident.Incident incident = byId.get(entry.group(2));
                if (incident != null) {
                    Instant transition = entry.group(1).equals("OPENED") ? incident.openedAt() : incident.resolvedAt();
                    if (transition != null) {
                        email.add(delivered - transition.toEpochMilli());
                    }
                }
            }
        }
        Map<String, Long> firing = new HashMap<>();
        for (RecordingHttpServer.Request request :
                receivers.alertmanagerReceiver().requests()) {
            for (JsonNode alert : JSON.readTree(request.body()).get("alerts")) {
                String id = alert.get("annotations").path("incident").asString("");
                io.observatory.incident.Incident incident = byId.get(id);
                if (alert.get("status").asString().equals("firing") && incident != null && !firing.containsKey(id)) {
                    firing.put(
                            id,
                            request.arrived().toEpochMilli()
                                    - incident.openedAt().toEpochMilli());
                }
            }
        }
        long[] directEmail = directEmails();
        long[] directAlerts = directAlerts();

        assertThat(email).as("e-mailed transitions").isNotEmpty();
        assertThat(firing).as("alerts Alertmanager notified").isNotEmpty();
        long[] emailMillis = email.stream().mapToLong(Long::longValue).toArray();
        long[] alertMillis = firing.values().stream().mapToLong(Long::longValue).toArray();
        System.out.printf(
                "Incident notifications over %d tellings of the mesh demo's story (%d incidents, group-wait 0s):%n",
                STORIES, incidents.size());
        System.out.printf(
                "  transition -> e-mail delivered (aiosmtpd): median %d ms, p99 %d ms, max %d ms over %d transitions;"
                        + " reference, a direct send to the same server: median %.1f ms, p99 %.1f ms%n",
                percentile(emailMillis, 50),
                percentile(emailMillis, 99),
                percentile(emailMillis, 100),
                emailMillis.length,
                millis(percentile(directEmail, 50)),
                millis(percentile(directEmail, 99)));
        System.out.printf(
                "  transition -> Alertmanager's notification of the new alert (group_wait 0s): median %d ms, p99 %d ms,"
                        + " max %d ms over %d alerts; reference, a direct POST to the same Alertmanager: median %.1f"
                        + " ms, p99 %.1f ms%n",
                percentile(alertMillis, 50),
                percentile(alertMillis, 99),
                percentile(alertMillis, 100),
                alertMillis.length,
                millis(percentile(directAlerts, 50)),
                millis(percentile(directAlerts, 99)));
    }

    /** Nanoseconds from the start of a direct send to the message written, {@value #REFERENCE_SENDS} times. */
    private long[] directEmails() throws Exception {
        JavaMailSenderImpl sender = new JavaMailSenderImpl();
        sender.setHost("127.0.0.1");
        sender.setPort(receivers.smtpPort());
        long[] nanos = new long[REFERENCE_SENDS];
        for (int i = 0; i < REFERENCE_SENDS; i++) {
            int before = receivers.messages().size();
            MimeMessage message = sender.createMimeMessage();
            MimeMessageHelper helper = new MimeMessageHelper(message, true, "UTF-8");
            helper.setFrom("reference@example.test");
            helper.setTo("oncall@example.test");
            helper.setSubject("reference " + i);
            helper.setText("plain", "<p>html</p>");
            Instant start = Instant.now();
            sender.send(message);
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> receivers.messages().size() > before);
            Instant written = receivers.delivered(before + 1).toInstant();
            nanos[i] = Duration.between(start, written).toNanos();
        }
        return nanos;
    }

    /** Nanoseconds from the start of a direct POST of a new alert to Alertmanager's notification of it. */
    private long[] directAlerts() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long[] nanos = new long[REFERENCE_SENDS];
        for (int i = 0; i < REFERENCE_SENDS; i++) {
            String subject = "reference/" + i;
            String alert = JSON.writeValueAsString(List.of(Map.of(
                    "labels", Map.of("alertname", "Reference", "subject", subject),
                    "startsAt", Instant.now().toString())));
            Instant start = Instant.now();
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create(receivers.alertmanagerUrl() + "/api/v2/alerts"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(alert))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            RecordingHttpServer.Request notified = org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () -> receivers.alertmanagerReceiver().requests().stream()
                                    .filter(request -> request.body().contains("\"subject\":\"" + subject + "\""))
                                    .findFirst(),
                            java.util.Optional::isPresent)
                    .orElseThrow();
            nanos[i] = Duration.between(start, notified.arrived()).toNanos();
        }
        return nanos;
    }
}
