package io.observatory.incident.notify;

import io.observatory.probe.TrustedCertificates;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;
import org.jspecify.annotations.Nullable;
import org.springframework.mail.MailSendException;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mail.javamail.MimeMessageHelper;

/**
 * Notices as e-mail over SMTP, with Spring's {@link JavaMailSenderImpl}: one message per notice to every recipient,
 * a plain-text and an HTML part ({@link NoticeText}). With {@code starttls} (the default) the connection must be
 * upgraded before the login, and the server's certificate is verified against its host name; the password is read
 * from its file at each message, so a rotated one needs no restart. A refusal for good (an SMTP 5xx reply, an address
 * the message cannot carry) is {@link Channel.Undeliverable}; anything else is retried.
 */
final class EmailChannel implements Channel {

    private final EmailSettings settings;
    private final Clock clock;
    private final JavaMailSenderImpl sender = new JavaMailSenderImpl();

    /** @throws IllegalStateException when {@code ca-file} holds no certificate */
    EmailChannel(EmailSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        sender.setHost(settings.host());
        sender.setPort(settings.port());
        sender.setDefaultEncoding(StandardCharsets.UTF_8.name());
        Properties properties = sender.getJavaMailProperties();
        String timeout = Long.toString(settings.timeout().toMillis());
        properties.put("mail.smtp.connectiontimeout", timeout);
        properties.put("mail.smtp.timeout", timeout);
        properties.put("mail.smtp.writetimeout", timeout);
        properties.put("mail.smtp.auth", Boolean.toString(settings.username() != null));
        properties.put("mail.smtp.starttls.enable", Boolean.toString(settings.starttls()));
        properties.put("mail.smtp.starttls.required", Boolean.toString(settings.starttls()));
        properties.put("mail.smtp.ssl.checkserveridentity", "true");
        if (settings.caFile() != null) {
            properties.put("mail.smtp.ssl.socketFactory", socketFactory(Path.of(settings.caFile())));
        }
        if (settings.username() != null) {
            sender.setUsername(settings.username());
        }
    }

    @Override
    public String name() {
        return NotificationSettings.EMAIL;
    }

    @Override
    public void send(Notice notice) throws MessagingException, IOException, Undeliverable {
        String password = password();
        if (password != null) {
            sender.setPassword(password);
        }
        MimeMessage message = sender.createMimeMessage();
        MimeMessageHelper helper = new MimeMessageHelper(message, true, StandardCharsets.UTF_8.name());
        try {
            helper.setFrom(java.util.Objects.requireNonNull(settings.from(), "checked"));
            helper.setTo(settings.to().toArray(String[]::new));
        } catch (AddressException e) {
            throw new Undeliverable("an address the message cannot carry: " + e.getMessage());
        }
        helper.setSubject(NoticeText.subject(notice));
        helper.setText(NoticeText.plain(notice, clock.instant()), NoticeText.html(notice, clock.instant()));
        try {
            sender.send(message);
        } catch (MailSendException e) {
            Integer code = permanentRefusal(e);
            if (code != null) {
                throw new Undeliverable("the SMTP server refused it for good (" + code + "): " + e.getMessage());
            }
            throw e;
        }
    }

    /**
     * The SMTP reply code of a refusal for good (5xx: an unknown recipient, a sender not allowed, a message too
     * large), found anywhere in the failure's chain; null for a failure that may pass later (4xx, no connection).
     */
    private static @Nullable Integer permanentRefusal(MailSendException failure) {
        List<Throwable> pending = new ArrayList<>(failure.getFailedMessages().values());
        pending.add(failure.getCause());
        for (Throwable cause : pending) {
            for (Throwable at = cause; at != null; at = next(at)) {
                int code = at instanceof SMTPAddressFailedException address
                        ? address.getReturnCode()
                        : at instanceof SMTPSendFailedException sent
                                ? sent.getReturnCode()
                                : at instanceof SMTPSenderFailedException sender ? sender.getReturnCode() : 0;
                if (code >= 500) {
                    return code;
                }
            }
        }
        return null;
    }

    private static @Nullable Throwable next(Throwable at) {
        return at instanceof MessagingException messaging && messaging.getNextException() != null
                ? messaging.getNextException()
                : at.getCause();
    }

    private @Nullable String password() throws IOException {
        if (settings.passwordFile() != null) {
            return Files.readString(Path.of(settings.passwordFile())).strip();
        }
        return settings.password();
    }

    private static javax.net.ssl.SSLSocketFactory socketFactory(Path caFile) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, TrustedCertificates.withExtra(caFile).getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the certificates of " + caFile + ": " + e, e);
        }
    }
}
