package io.observatory.incident.notify;

import io.observatory.incident.Incident;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.text.QuotedText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Notices as an HTTP POST with the JDK's {@link HttpClient}, in one of four bodies:
 *
 * <ul>
 *   <li>{@code json}: {@code {"notice": [{"change": "opened", "incident": {...}}, ...]}}, each incident with its id,
 *       subject, source, kind, severity, reason, labels, evidence and times (RFC 3339); with a secret, the header
 *       {@code X-Observatory-Signature: sha256=<hex>} carries the HMAC-SHA256 of the body (GitHub's form), so the
 *       receiver can tell it came from us;</li>
 *   <li>{@code slack}: an incoming webhook's {@code {"text": ...}};</li>
 *   <li>{@code discord}: a webhook's {@code {"content": ...}} (at most 2,000 characters);</li>
 *   <li>{@code telegram}: the Bot API's {@code sendMessage} {@code {"chat_id": ..., "text": ...}}.</li>
 * </ul>
 *
 * A 2xx answer delivers it; 408, 429 and 5xx, a timeout or a refused connection are retried; any other answer is a
 * refusal for good. The secret and the token are read from their files at each POST.
 */
final class WebhookChannel implements Channel {

    /** The header of the body's HMAC-SHA256. */
    static final String SIGNATURE = "X-Observatory-Signature";

    /** Discord refuses longer content. */
    private static final int DISCORD_LIMIT = 2000;

    private final WebhookSettings settings;
    private final Clock clock;
    private final HttpClient client;
    private final JsonMapper json = JsonMapper.builder().build();

    WebhookChannel(WebhookSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.client = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public String name() {
        return java.util.Objects.requireNonNull(settings.name(), "checked");
    }

    @Override
    public void send(Notice notice) throws IOException, InterruptedException, Undeliverable {
        byte[] body = json.writeValueAsBytes(body(notice, clock.instant()));
        URI target;
        try {
            target = settings.target(secret(settings.token(), settings.tokenFile()));
        } catch (IllegalArgumentException e) {
            // Not the exception's message: it holds the URL, and a Telegram URL holds the bot's token.
            throw new Undeliverable("its URL is not valid with the token of token/token-file (expected: a bot token"
                    + " of letters, digits, ':', '-' and '_')");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(target)
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("User-Agent", "Observatory")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        String secret = secret(settings.secret(), settings.secretFile());
        if (secret != null) {
            request.header(SIGNATURE, "sha256=" + hmac(secret, body));
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status / 100 == 2) {
            return;
        }
        String answer = "HTTP " + status + " " + QuotedText.quote(response.body(), 200);
        if (status == 408 || status == 429 || status >= 500) {
            throw new IOException(answer);
        }
        throw new Undeliverable(answer);
    }

    /** The body of {@code notice} in the webhook's format, as a JSON tree of maps and lists. */
    Object body(Notice notice, Instant now) {
        return switch (settings.format()) {
            case JSON ->
                Map.of(
                        "notice",
                        notice.entries().stream().map(WebhookChannel::entry).toList());
            case SLACK -> Map.of("text", NoticeText.chat(notice, now));
            case DISCORD -> {
                String text = NoticeText.chat(notice, now);
                yield Map.of(
                        "content", text.length() <= DISCORD_LIMIT ? text : text.substring(0, DISCORD_LIMIT - 1) + "…");
            }
            case TELEGRAM ->
                Map.of(
                        "chat_id",
                        java.util.Objects.requireNonNull(settings.chatId(), "checked"),
                        "text",
                        NoticeText.chat(notice, now));
        };
    }

    private static Map<String, Object> entry(Entry entry) {
        Incident incident = entry.incident();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", incident.id());
        fields.put("subject", incident.subject());
        fields.put("source", incident.source());
        fields.put("kind", incident.kind());
        fields.put("severity", incident.severity().label());
        fields.put("reason", incident.reason());
        fields.put("labels", incident.labels());
        fields.put(
                "evidence",
                incident.evidence().stream()
                        .map(vantage -> Map.of(
                                "name", vantage.name(),
                                "site", vantage.site(),
                                "checker", vantage.checker(),
                                "detail", vantage.detail()))
                        .toList());
        fields.put("opened_at", incident.openedAt().toString());
        Instant resolvedAt = incident.resolvedAt();
        if (resolvedAt != null) {
            fields.put("resolved_at", resolvedAt.toString());
            fields.put("resolution", incident.resolution());
        }
        return Map.of("change", entry.change().name().toLowerCase(java.util.Locale.ROOT), "incident", fields);
    }

    static String hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available: " + e, e);
        }
    }

    private static @Nullable String secret(@Nullable String value, @Nullable String file) throws IOException {
        return file != null ? Files.readString(Path.of(file)).strip() : value;
    }
}
