package io.observatory.incident.notify;

import io.observatory.config.Checked;
import io.observatory.config.ConfigSection;
import io.observatory.config.Problems;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.notifications}: who hears of incidents, and how. Every channel hears only the incidents this
 * replica recorded (with several replicas on one database, one of them tells), opened and — with {@code recovery} —
 * resolved; Alertmanager hears every open incident from every replica and deduplicates them itself. Fixed for the
 * process.
 *
 * @param email          e-mail over SMTP; null: none
 * @param webhooks       HTTP POSTs, each with a unique name. Default: none
 * @param alertmanager   Alertmanager's API; null: none
 * @param routes         which incidents go to which e-mail and webhook channels; none: every channel hears every
 *                       incident. Default: none
 * @param groupWait      how long the first incident of a message waits for others, so that ten outbounds failing at
 *                       once make one message, 0-10m. Default: 10s
 * @param repeatInterval how often a message repeats the incidents still open, 0 (never) or 1m-30d. Default: 4h
 * @param recovery       whether a resolution is told too. Default: true
 * @param queue          the most messages one channel keeps while its receiver is down, 1-100000; beyond it new ones
 *                       are dropped and counted. Default: 1000
 */
@ConfigurationProperties("observatory.notifications")
public record NotificationSettings(
        @Nullable Email email,

        @DefaultValue List<Webhook> webhooks,

        @Nullable Alertmanager alertmanager,

        @DefaultValue List<Route> routes,

        @DefaultValue("10s")
        @DurationMin(nanos = 0, message = GROUP_WAIT_EXPECTED)
        @DurationMax(minutes = 10, message = GROUP_WAIT_EXPECTED)
        Duration groupWait,

        @DefaultValue("4h")
        @DurationMin(nanos = 0, message = REPEAT_EXPECTED)
        @DurationMax(days = 30, message = REPEAT_EXPECTED)
        Duration repeatInterval,

        @DefaultValue("true") boolean recovery,

        @DefaultValue("1000") @Min(value = 1, message = QUEUE_EXPECTED) @Max(value = 100_000, message = QUEUE_EXPECTED)
        int queue)
        implements Checked {

    /** The notifications' section of the configuration; its settings take effect at start-up only. */
    public static final ConfigSection<NotificationSettings> SECTION = new ConfigSection<>() {
        @Override
        public String key() {
            return "notifications";
        }

        @Override
        public Class<NotificationSettings> type() {
            return NotificationSettings.class;
        }

        @Override
        public List<String> startUpOnly() {
            return List.of(
                    "email",
                    "webhooks",
                    "alertmanager",
                    "routes",
                    "group-wait",
                    "repeat-interval",
                    "recovery",
                    "queue");
        }
    };

    /** The channel name of the e-mail in {@link Route#channels}. */
    public static final String EMAIL = "email";

    private static final String GROUP_WAIT_EXPECTED = "a duration from 0s up to 10m0s";
    private static final String REPEAT_EXPECTED = "0s (never), or a duration from 1m0s up to 720h0m0s";
    private static final String QUEUE_EXPECTED = "from 1 up to 100000";

    public NotificationSettings {
        webhooks = List.copyOf(webhooks);
        routes = List.copyOf(routes);
    }

    /** The names of the channels routes may name: {@value #EMAIL} when set, and every webhook's. */
    public Set<String> channelNames() {
        Set<String> names = new HashSet<>();
        if (email != null) {
            names.add(EMAIL);
        }
        webhooks.forEach(webhook -> names.add(webhook.name()));
        return names;
    }

    @Override
    public void check(Problems problems) {
        if (!repeatInterval.isZero() && repeatInterval.compareTo(Duration.ofMinutes(1)) < 0) {
            problems.reject("repeat-interval", repeatInterval.toString(), REPEAT_EXPECTED);
        }
        Set<String> names = new HashSet<>();
        if (email != null) {
            names.add(EMAIL);
        }
        for (int i = 0; i < webhooks.size(); i++) {
            String name = webhooks.get(i).name();
            if (name != null && !names.add(name)) {
                problems.reject(
                        "webhooks[" + i + "].name",
                        name,
                        "a name no other webhook has, and not \"" + EMAIL + "\" (the e-mail's channel)");
            }
        }
        for (int i = 0; i < routes.size(); i++) {
            for (int j = 0; j < routes.get(i).channels().size(); j++) {
                String channel = routes.get(i).channels().get(j);
                if (!names.contains(channel)) {
                    problems.reject(
                            "routes[" + i + "].channels[" + j + "]",
                            channel,
                            names.isEmpty()
                                    ? "a channel, but neither email nor a webhook is set"
                                    : "one of " + names.stream().sorted().toList());
                }
            }
        }
    }

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
    public record Email(
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
            @DurationMin(seconds = 1, message = TIMEOUT_EXPECTED)
            @DurationMax(minutes = 5, message = TIMEOUT_EXPECTED)
            Duration timeout)
            implements Checked {

        private static final String PORT_EXPECTED = "a port from 1 up to 65535";

        public Email {
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
                readable(problems, "password-file", passwordFile);
            }
            if (caFile != null) {
                readable(problems, "ca-file", caFile);
            }
            if ((password != null || passwordFile != null) && (username == null || username.isBlank())) {
                problems.reject("username", "a login, since a password is set");
            }
        }

        private static boolean address(String text) {
            return text.matches("[^@\\s<>]+@[^@\\s<>]+");
        }
    }

    /**
     * One {@code observatory.notifications.webhooks[i]}: an HTTP POST per group of incidents.
     *
     * @param name       the channel's name in routes and logs, e.g. {@code ops-slack}. Required
     * @param url        where to POST, http or https; for {@code telegram} the Bot API's base
     *                   ({@code https://api.telegram.org} when empty). Required but for telegram
     * @param format     the body: {@code json} (the incidents as Observatory's JSON, signed when a secret is set),
     *                   {@code slack} and {@code discord} (their incoming webhooks' {@code text} and {@code content}),
     *                   {@code telegram} (the Bot API's {@code sendMessage}). Default: json
     * @param secret     the HMAC-SHA256 key of the {@code X-Observatory-Signature} header ({@code sha256=<hex>} of
     *                   the body); or use {@code secret-file}. Default: none
     * @param secretFile a file holding it. Default: none
     * @param token      a Telegram bot's token; or use {@code token-file}. Required for telegram
     * @param tokenFile  a file holding it. Default: none
     * @param chatId     the Telegram chat to post to. Required for telegram
     * @param timeout    how long one POST may take, 1s-5m. Default: 10s
     */
    public record Webhook(
            @Nullable String name,
            @Nullable String url,
            @DefaultValue("json") Format format,
            @Nullable String secret,
            @Nullable String secretFile,
            @Nullable String token,
            @Nullable String tokenFile,
            @Nullable String chatId,

            @DefaultValue("10s")
            @DurationMin(seconds = 1, message = TIMEOUT_EXPECTED)
            @DurationMax(minutes = 5, message = TIMEOUT_EXPECTED)
            Duration timeout)
            implements Checked {

        /** The Bot API's base when a telegram webhook names none. */
        public static final String TELEGRAM_API = "https://api.telegram.org";

        /** The body a webhook sends. */
        public enum Format {
            JSON,
            SLACK,
            DISCORD,
            TELEGRAM
        }

        /** Where to POST: {@code url}, or for telegram the Bot API's {@code sendMessage} of the token. */
        public URI target(@Nullable String telegramToken) {
            if (format == Format.TELEGRAM) {
                String base = url == null || url.isBlank() ? TELEGRAM_API : url.replaceAll("/+$", "");
                return URI.create(base + "/bot" + telegramToken + "/sendMessage");
            }
            return URI.create(java.util.Objects.requireNonNull(url, "checked"));
        }

        @Override
        public void check(Problems problems) {
            if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
                problems.reject("name", String.valueOf(name), "a name of letters, digits, '.', '_' or '-', up to 64");
            }
            boolean telegram = format == Format.TELEGRAM;
            if (url == null || url.isBlank()) {
                if (!telegram) {
                    problems.reject("url", "an http or https URL to POST to");
                }
            } else if (!httpUrl(url)) {
                problems.reject("url", url, "an http or https URL with a host, e.g. https://hooks.example.com/x");
            }
            if (secret != null && secretFile != null) {
                problems.reject("secret-file", secretFile, "no file, since secret is set");
            }
            if (secretFile != null) {
                readable(problems, "secret-file", secretFile);
            }
            if (telegram) {
                if (token == null && tokenFile == null) {
                    problems.reject("token", "a Telegram bot's token (or token-file), since the format is telegram");
                }
                if (tokenFile != null) {
                    readable(problems, "token-file", tokenFile);
                }
                if (chatId == null || chatId.isBlank()) {
                    problems.reject("chat-id", "the Telegram chat to post to, since the format is telegram");
                }
            } else if (token != null || tokenFile != null || chatId != null) {
                problems.reject(
                        token != null ? "token" : tokenFile != null ? "token-file" : "chat-id",
                        "nothing unless the format is telegram");
            }
        }

        /** The format's name in the configuration, e.g. {@code slack}. */
        public static String word(Format format) {
            return format.name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code observatory.notifications.alertmanager}: the open incidents as alerts, as Prometheus sends its own.
     *
     * @param url            Alertmanager's base URL, e.g. {@code http://alertmanager:9093}; alerts go to
     *                       {@code /api/v2/alerts} under it. Required
     * @param resendInterval how often the firing alerts are sent again (Prometheus's {@code --rules.alert.resend-delay}),
     *                       1s-1h; an alert is valid four times as long. Default: 1m
     * @param timeout        how long one POST may take, 1s-5m. Default: 10s
     */
    public record Alertmanager(
            @Nullable String url,

            @DefaultValue("1m")
            @DurationMin(seconds = 1, message = "a duration from 1s up to 1h0m0s")
            @DurationMax(hours = 1, message = "a duration from 1s up to 1h0m0s")
            Duration resendInterval,

            @DefaultValue("10s")
            @DurationMin(seconds = 1, message = TIMEOUT_EXPECTED)
            @DurationMax(minutes = 5, message = TIMEOUT_EXPECTED)
            Duration timeout)
            implements Checked {

        @Override
        public void check(Problems problems) {
            if (url == null || !httpUrl(url)) {
                problems.reject(
                        "url",
                        String.valueOf(url),
                        "Alertmanager's http or https base URL, e.g. http://alertmanager:9093");
            }
        }
    }

    /**
     * One {@code observatory.notifications.routes[i]}: the incidents some channels hear. An incident is told on every
     * channel of every route it matches; a route matches what all of its non-empty lists match.
     *
     * @param channels   the channels: {@code email} and webhook names, at least one. Default: none
     * @param subjects   subject prefixes, e.g. {@code server/} or {@code outbound/eu-}; none: every subject. Default:
     *                   none
     * @param kinds      kinds, e.g. {@code BLOCKED}; none: every kind. Default: none
     * @param severities {@code critical}, {@code warning}; none: both. Default: none
     */
    public record Route(
            @DefaultValue List<String> channels,
            @DefaultValue List<String> subjects,
            @DefaultValue List<String> kinds,
            @DefaultValue List<String> severities)
            implements Checked {

        public Route {
            channels = List.copyOf(channels);
            subjects = List.copyOf(subjects);
            kinds = List.copyOf(kinds);
            severities = List.copyOf(severities);
        }

        @Override
        public void check(Problems problems) {
            if (channels.isEmpty()) {
                problems.reject("channels", "none", "at least one channel");
            }
            for (int i = 0; i < severities.size(); i++) {
                if (!severities.get(i).equals("critical") && !severities.get(i).equals("warning")) {
                    problems.reject("severities[" + i + "]", severities.get(i), "critical or warning");
                }
            }
            for (int i = 0; i < kinds.size(); i++) {
                if (!kinds.get(i).matches("[A-Z][A-Z_]*")) {
                    problems.reject("kinds[" + i + "]", kinds.get(i), "a kind in upper case, e.g. BLOCKED");
                }
            }
        }
    }

    private static final String TIMEOUT_EXPECTED = "a duration from 1s up to 5m0s";

    private static boolean httpUrl(String text) {
        try {
            URI uri = new URI(text);
            return ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                    && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static void readable(Problems problems, String property, String file) {
        if (!problems.startUp()) {
            return;
        }
        try {
            if (!Files.isReadable(Path.of(file))) {
                problems.reject(property, file, "a file this process may read");
            }
        } catch (InvalidPathException e) {
            problems.reject(property, file, "the path of a file");
        }
    }
}
