package io.observatory.incident.notify;

import com.google.common.base.Splitter;
import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.store.IncidentStore;
import io.observatory.text.QuotedText;
import io.observatory.text.Redaction;
import io.observatory.time.Backoff;
import io.observatory.time.Scheduler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The open incidents as Alertmanager alerts, sent the way Prometheus sends its own: every firing alert POSTed to
 * {@code /api/v2/alerts} at once when something changed and again every {@code resend-interval}, valid for four
 * intervals ({@code endsAt}), and a resolved one sent with {@code endsAt} at its resolution for
 * {@link #RESOLVED_RETENTION} after (Prometheus keeps resolved alerts 15 minutes). Every replica sends every open
 * incident, and Alertmanager, which deduplicates alerts by their labels, notifies once.
 *
 * <p>An alert's labels: {@code alertname} ({@code Observatory} and the kind, e.g. {@code ObservatoryBlocked}),
 * {@code subject}, {@code kind}, {@code severity}, {@code source} and the incident's own ({@code route},
 * {@code server}, {@code site}, {@code outbound}, …); its annotations: {@code summary}, {@code description} (the
 * reason), {@code evidence} and {@code incident} (the id). A failed POST is retried after 1 s, doubling up to the
 * resend interval, the outage logged once. Runs on its own thread; holds the open incidents (about 500 bytes each).
 */
final class AlertmanagerSender {

    /** How long a resolved incident is still sent, with its {@code endsAt}. */
    static final Duration RESOLVED_RETENTION = Duration.ofMinutes(15);

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(AlertmanagerSender.class);

    private final AlertmanagerSettings settings;
    private final URI alerts;
    private final Scheduler thread;
    private final Clock clock;
    private final HttpClient client;
    private final JsonMapper json = JsonMapper.builder().build();
    // The sender's thread only.
    private final Map<String, Incident> firing = new LinkedHashMap<>();
    private final Map<String, Incident> resolved = new LinkedHashMap<>();
    private Scheduler.@Nullable Cancellable next;
    private boolean sendDue;
    private final Backoff backoff;
    private int failedAttempts;
    private boolean stopped;
    private @Nullable Runnable unwatch;

    AlertmanagerSender(AlertmanagerSettings settings, Scheduler thread, Clock clock) {
        this.settings = settings;
        this.alerts = URI.create(
                java.util.Objects.requireNonNull(settings.url(), "checked").replaceAll("/+$", "") + "/api/v2/alerts");
        this.thread = thread;
        this.clock = clock;
        this.backoff = new Backoff(FIRST_BACKOFF, settings.resendInterval());
        this.client = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Follows the store: its open incidents now, then every recorded event. */
    void start(IncidentStore store) {
        unwatch = store.watch(
                open -> thread.execute(() -> {
                    open.forEach(incident -> firing.put(incident.id(), incident));
                    sendNow();
                }),
                batch -> thread.execute(() -> {
                    batch.events().forEach(this::apply);
                    sendNow();
                }));
    }

    void stop() {
        Runnable cancel = unwatch;
        if (cancel != null) {
            cancel.run();
        }
        thread.execute(() -> {
            stopped = true;
            if (next != null) {
                next.cancel();
            }
        });
    }

    private void apply(IncidentEvent event) {
        Incident incident = event.incident();
        if (incident.open()) {
            firing.put(incident.id(), incident);
        } else {
            firing.remove(incident.id());
            resolved.put(incident.id(), incident);
        }
    }

    private void sendNow() {
        if (sendDue || stopped) {
            return;
        }
        sendDue = true;
        if (next != null) {
            next.cancel();
        }
        next = thread.schedule(Duration.ZERO, this::send);
    }

    private void send() {
        sendDue = false;
        if (stopped) {
            return;
        }
        Instant now = clock.instant();
        resolved.values()
                .removeIf(incident -> incident.resolvedAt() != null
                        && incident.resolvedAt().plus(RESOLVED_RETENTION).isBefore(now));
        // One alert per label set, as Alertmanager keys them: a subject's new incident of the same kind replaces its
        // resolved one (sent both, the later in the body would win and hide the new one).
        Map<Object, Map<String, Object>> byLabels = new LinkedHashMap<>();
        resolved.values().forEach(incident -> {
            Map<String, Object> alert = alert(incident, now);
            byLabels.put(alert.get("labels"), alert);
        });
        firing.values().forEach(incident -> {
            Map<String, Object> alert = alert(incident, now);
            byLabels.put(alert.get("labels"), alert);
        });
        List<Map<String, Object>> body = new ArrayList<>(byLabels.values());
        Duration delay = settings.resendInterval();
        if (!body.isEmpty()) {
            try {
                post(body);
                if (failedAttempts > 0) {
                    log.info("alertmanager {}: reachable again after {} failed attempts", where(), failedAttempts);
                }
                failedAttempts = 0;
                backoff.reset();
            } catch (IOException e) {
                if (failedAttempts++ == 0) {
                    log.warn(
                            "alertmanager {}: cannot send {} alerts ({}); retrying",
                            where(),
                            body.size(),
                            e.getMessage() == null ? e.toString() : e.getMessage());
                }
                delay = backoff.next();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        next = thread.schedule(delay, this::send);
    }

    private void post(List<Map<String, Object>> body) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(alerts)
                        .timeout(settings.timeout())
                        .header("Content-Type", "application/json")
                        .header("User-Agent", "Observatory")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("HTTP " + response.statusCode() + " " + QuotedText.quote(response.body(), 200));
        }
    }

    /** One alert in Alertmanager's v2 form ({@code postableAlert}). */
    Map<String, Object> alert(Incident incident, Instant now) {
        Map<String, String> labels = new LinkedHashMap<>(incident.labels());
        labels.put("alertname", alertname(incident.kind()));
        labels.put("subject", incident.subject());
        labels.put("kind", incident.kind());
        labels.put("severity", incident.severity().label());
        labels.put("source", incident.source());
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("summary", incident.subject() + " " + incident.kind());
        annotations.put("description", incident.reason());
        String advice = NoticeText.advice(incident);
        if (!advice.isEmpty()) {
            annotations.put("advice", advice);
        }
        if (!incident.evidence().isEmpty()) {
            annotations.put(
                    "evidence",
                    String.join(
                            "; ",
                            incident.evidence().stream()
                                    .map(vantage -> vantage.name() + " (" + vantage.site() + "): " + vantage.detail())
                                    .toList()));
        }
        annotations.put("incident", incident.id());
        Instant resolvedAt = incident.resolvedAt();
        Instant endsAt = resolvedAt != null
                ? resolvedAt
                : now.plus(settings.resendInterval().multipliedBy(4));
        Map<String, Object> alert = new LinkedHashMap<>();
        alert.put("labels", labels);
        alert.put("annotations", annotations);
        alert.put("startsAt", incident.openedAt().toString());
        alert.put("endsAt", endsAt.toString());
        return alert;
    }

    /** E.g. {@code ObservatoryUnreachableFromServers} for {@code UNREACHABLE_FROM_SERVERS}. */
    static String alertname(String kind) {
        StringBuilder name = new StringBuilder("Observatory");
        for (String word : Splitter.on('_').omitEmptyStrings().split(kind.toLowerCase(Locale.ROOT))) {
            name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return name.toString();
    }

    private String where() {
        return Redaction.redact(alerts);
    }
}
