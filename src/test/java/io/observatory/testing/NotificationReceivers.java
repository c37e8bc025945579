package io.observatory.testing;

import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The real receivers of the service's notifications, on loopback: an SMTP server (Debian's aiosmtpd, through
 * {@code src/test/resources/incident/smtp-sink.py}, with STARTTLS and a login when asked) writing each message to a
 * directory, and Debian's Alertmanager ({@code prometheus-alertmanager}, no cluster) routing every alert at once
 * ({@code group_wait: 0s}) to a {@link RecordingHttpServer}. {@link #serviceArgs} points a service at both.
 */
public final class NotificationReceivers implements AutoCloseable {

    /** The SMTP login the sink requires when started with TLS. */
    public static final String SMTP_USER = "observatory";

    public static final String SMTP_PASSWORD = "smtp-s3cret";

    private static final Path SMTP_SINK = Path.of("src/test/resources/incident/smtp-sink.py");

    private final List<Runnable> started = new ArrayList<>();
    private final Path directory;
    private final Path mail;
    private final boolean tls;
    private final int smtpPort;
    private final int alertmanagerPort;
    private final RecordingHttpServer alertmanagerReceiver;
    private LoopbackDaemon alertmanager;

    private NotificationReceivers(Path directory, boolean tls) throws IOException {
        this.directory = directory;
        this.mail = Files.createDirectories(directory.resolve("mail"));
        this.tls = tls;
        this.smtpPort = LoopbackDaemon.freePort();
        this.alertmanagerPort = LoopbackDaemon.freePort();
        this.alertmanagerReceiver = RecordingHttpServer.start();
        started.add(alertmanagerReceiver::close);
    }

    /**
     * Picks both ports and starts neither server: receivers that are down until {@link #startSmtp} and
     * {@link #startAlertmanager}.
     */
    public static NotificationReceivers reserve(Path directory, boolean tls) throws IOException {
        return new NotificationReceivers(directory, tls);
    }

    /**
     * Starts both in {@code directory}.
     *
     * @param tls whether the SMTP server requires STARTTLS (with {@link TestPki}'s server certificate) and the login
     */
    public static NotificationReceivers start(Path directory, boolean tls) throws IOException {
        NotificationReceivers receivers = new NotificationReceivers(directory, tls);
        try {
            receivers.startSmtp();
            receivers.startAlertmanager();
        } catch (IOException | RuntimeException | Error e) {
            receivers.close();
            throw e;
        }
        return receivers;
    }

    /** Starts the SMTP server on its port. */
    public void startSmtp() throws IOException {
        List<String> command = new ArrayList<>(
                List.of("/usr/bin/python3", SMTP_SINK.toString(), Integer.toString(smtpPort), mail.toString()));
        if (tls) {
            command.addAll(List.of(
                    "--cert",
                    TestPki.serverCertificate().toString(),
                    "--key",
                    TestPki.serverPrivateKey().toString(),
                    "--user",
                    SMTP_USER,
                    "--password",
                    SMTP_PASSWORD));
        }
        LoopbackDaemon smtp = LoopbackDaemon.start("smtp sink", command, smtpPort, directory.resolve("smtp.log"));
        started.add(smtp::close);
    }

    /** Starts Alertmanager on its port, its data kept across a restart of it. */
    public void startAlertmanager() throws IOException {
        Path config =
                Files.writeString(directory.resolve("alertmanager.yml"), """
                route:
                  receiver: test
                  group_by: [alertname, subject]
                  group_wait: 0s
                  group_interval: 1s
                  repeat_interval: 1h
                receivers:
                  - name: test
                    webhook_configs:
                      - url: %s/alertmanager
                        send_resolved: true
                """.formatted(alertmanagerReceiver.url()));
        LoopbackDaemon alertmanager = LoopbackDaemon.start(
                "alertmanager",
                List.of(
                        "/usr/bin/prometheus-alertmanager",
                        "--config.file=" + config,
                        "--storage.path=" + Files.createDirectories(directory.resolve("alertmanager-data")),
                        "--web.listen-address=127.0.0.1:" + alertmanagerPort,
                        "--cluster.listen-address="),
                alertmanagerPort,
                directory.resolve("alertmanager.log"));
        started.add(alertmanager::close);
        this.alertmanager = alertmanager;
    }

    /** Stops Alertmanager (its data stays for the next start). */
    public void stopAlertmanager() {
        LoopbackDaemon running = alertmanager;
        if (running != null) {
            running.close();
            alertmanager = null;
        }
    }

    /**
     * The service's arguments for both: e-mail to the sink (with the login and the test CA when TLS; a password file
     * written here), Alertmanager re-sent every 2 s.
     */
    public List<String> serviceArgs() throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "--observatory.notifications.email.host=127.0.0.1",
                "--observatory.notifications.email.port=" + smtpPort,
                "--observatory.notifications.email.from=observatory@example.test",
                "--observatory.notifications.email.to[0]=oncall@example.test",
                "--observatory.notifications.alertmanager.url=http://127.0.0.1:" + alertmanagerPort,
                "--observatory.notifications.alertmanager.resend-interval=2s"));
        if (tls) {
            Path passwordFile = Files.writeString(directory.resolve("smtp-password"), SMTP_PASSWORD + "\n");
            args.addAll(List.of(
                    "--observatory.notifications.email.username=" + SMTP_USER,
                    "--observatory.notifications.email.password-file=" + passwordFile,
                    "--observatory.notifications.email.ca-file=" + TestPki.caCertificate()));
        } else {
            args.add("--observatory.notifications.email.starttls=false");
        }
        return args;
    }

    /** The SMTP server's port. */
    public int smtpPort() {
        return smtpPort;
    }

    /** Alertmanager's base URL, e.g. {@code http://127.0.0.1:41234}. */
    public String alertmanagerUrl() {
        return "http://127.0.0.1:" + alertmanagerPort;
    }

    /** Every message the SMTP server accepted so far, in order. */
    public List<MimeMessage> messages() throws Exception {
        List<MimeMessage> messages = new ArrayList<>();
        for (int number = 1; Files.exists(mail.resolve(number + ".eml")); number++) {
            try (InputStream in = Files.newInputStream(mail.resolve(number + ".eml"))) {
                messages.add(new MimeMessage(Session.getInstance(new Properties()), in));
            }
        }
        return messages;
    }

    /** The text/plain parts of {@code message}, however deeply nested, joined. */
    public static String text(MimeMessage message) throws Exception {
        StringBuilder text = new StringBuilder();
        collect(message.getContent(), text);
        return text.toString();
    }

    private static void collect(Object content, StringBuilder text) throws Exception {
        if (content instanceof Multipart multipart) {
            for (int i = 0; i < multipart.getCount(); i++) {
                BodyPart part = multipart.getBodyPart(i);
                if (part.getContent() instanceof Multipart) {
                    collect(part.getContent(), text);
                } else if (part.isMimeType("text/plain")) {
                    text.append(part.getContent());
                }
            }
        } else if (content instanceof String plain) {
            text.append(plain);
        }
    }

    /** When the SMTP server wrote message {@code number} (1-based): when it was delivered. */
    public FileTime delivered(int number) throws IOException {
        return Files.getLastModifiedTime(mail.resolve(number + ".eml"));
    }

    /** The envelope (sender, then recipients, one a line) of message {@code number}. */
    public String envelope(int number) throws IOException {
        return Files.readString(mail.resolve(number + ".envelope"));
    }

    /** What Alertmanager's webhook receiver got: one request per notification of a group, firing or resolved. */
    public RecordingHttpServer alertmanagerReceiver() {
        return alertmanagerReceiver;
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).run();
        }
    }
}
