package io.observatory.incident.notify;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.notifications.email}: one message per group of incidents, plain text and HTML.
 *
 * @param host         the SMTP server's host name or address. Required
 * @param port         its port, 1-65535. Default: 587 (submission with STARTTLS)
 * @param username     the login. Default: none
 * @param password     the password, e.g. {@code ${SMTP_PASSWORD}} from the environment; or use
 *                     {@code password-file}. Default: none
 * @param passwordFile a file holding the password (trailing newline ignored), read at each connection. Default:
 *                     none
 * @param starttls     whether the connection must be upgraded with STARTTLS before anything is sent (the
 *                     server's certificate verified against the host name). Default: true
 * @param from         the sender address. Required
 * @param to           the recipients, at least one. Default: none
 * @param caFile       PEM certificates trusted besides the JDK's, for a server with a private CA. Default: none
 * @param timeout      how long connecting, and each exchange, may take, 1s-5m. Default: 10s
 */
public record EmailSettings(
        @Nullable String host,

        @DefaultValue("587") @Min(value = 1, message = PORT_EXPECTED) @Max(value = 65535, message = PORT_EXPECTED)
        int port,

        @Nullable String username,
        @Nullable String password,
        @Nullable String passwordFile,
        @DefaultValue("true") boolean starttls,
        @Nullable String from,
        @DefaultValue List<String> to,
        @Nullable String caFile,

        @DefaultValue("10s")
        @DurationMin(seconds = 1, message = SettingsChecks.TIMEOUT_EXPECTED)
        @DurationMax(minutes = 5, message = SettingsChecks.TIMEOUT_EXPECTED)
        Duration timeout)
        implements Checked {

    private static final String PORT_EXPECTED = "a port from 1 up to 65535";

    public EmailSettings {
        to = List.copyOf(to);
    }

    @Override
    public void check(Problems problems) {
        if (host == null || host.isBlank()) {
            problems.reject("host", "the SMTP server's host name or address");
        } else if (!host.matches("[A-Za-z0-9.:\\[\\]-]+")) {
            problems.reject("host", host, "a host name or an IP address");
        }
        if (from == null || !address(from)) {
            problems.reject("from", String.valueOf(from), "an e-mail address, e.g. observatory@example.com");
        }
        if (to.isEmpty()) {
            problems.reject("to", "none", "at least one e-mail address");
        }
        for (int i = 0; i < to.size(); i++) {
            if (!address(to.get(i))) {
                problems.reject("to[" + i + "]", to.get(i), "an e-mail address, e.g. oncall@example.com");
            }
        }
        if (password != null && passwordFile != null) {
            problems.reject("password-file", passwordFile, "no file, since password is set");
        }
        if (passwordFile != null) {
            SettingsChecks.readable(problems, "password-file", passwordFile);
        }
        if (caFile != null) {
            SettingsChecks.readable(problems, "ca-file", caFile);
        }
        if ((password != null || passwordFile != null) && (username == null || username.isBlank())) {
            problems.reject("username", "a login, since a password is set");
        }
    }

    private static boolean address(String text) {
        return text.matches("[^@\\s<>]+@[^@\\s<>]+");
    }
}
