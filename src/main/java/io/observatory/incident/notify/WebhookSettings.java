package io.observatory.incident.notify;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

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
public record WebhookSettings(
        @Nullable String name,
        @Nullable String url,
        @DefaultValue("json") Format format,
        @Nullable String secret,
        @Nullable String secretFile,
        @Nullable String token,
        @Nullable String tokenFile,
        @Nullable String chatId,

        @DefaultValue("10s")
        @DurationMin(seconds = 1, message = SettingsChecks.TIMEOUT_EXPECTED)
        @DurationMax(minutes = 5, message = SettingsChecks.TIMEOUT_EXPECTED)
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
        } else if (!SettingsChecks.httpUrl(url)) {
            problems.reject("url", url, "an http or https URL with a host, e.g. https://hooks.example.com/x");
        }
        if (secret != null && secretFile != null) {
            problems.reject("secret-file", secretFile, "no file, since secret is set");
        }
        if (secretFile != null) {
            SettingsChecks.readable(problems, "secret-file", secretFile);
        }
        if (telegram) {
            if (token == null && tokenFile == null) {
                problems.reject("token", "a Telegram bot's token (or token-file), since the format is telegram");
            }
            if (tokenFile != null) {
                SettingsChecks.readable(problems, "token-file", tokenFile);
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
