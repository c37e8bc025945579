package io.observatory.incident.history;

import io.observatory.incident.Incident;
import io.observatory.management.PartView;
import io.observatory.snapshot.SnapshotPart;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The incidents' panel of the status page and member of {@code /actuator/observatory}: every subject with an incident
 * in the last 90 days — its open incident, its availability over 24 hours, 7 and 30 days and its strip of 90 days —
 * open ones first, then by their latest incident, at most {@value #SUBJECTS}; a subject's card
 * ({@code /status/api/incidents/<key>}, the key its subject in base64url) lists its incidents with start, end,
 * duration, reason and evidence. Subjects without an incident are 100 % available and not listed.
 */
public final class IncidentPage implements PartView<IncidentHistory, Object> {

    /** The most subjects the panel lists. */
    static final int SUBJECTS = 200;

    /** The days of the strip. */
    static final int DAYS = 90;

    @Override
    public SnapshotPart<IncidentHistory> part() {
        return IncidentHistory.PART;
    }

    @Override
    public @Nullable Object endpointJson(IncidentHistory history) {
        if (history.bySubject().isEmpty()) {
            return null;
        }
        long open = history.bySubject().keySet().stream()
                .filter(subject -> history.open(subject) != null)
                .count();
        return Map.of("subjects", history.bySubject().size(), "open", open);
    }

    @Override
    public Object pageJson(IncidentHistory history, Instant now) {
        List<String> subjects = new ArrayList<>(history.bySubject().keySet());
        subjects.sort(Comparator.comparing((String subject) -> history.open(subject) == null)
                .thenComparing(history::latest, Comparator.reverseOrder())
                .thenComparing(Comparator.naturalOrder()));
        List<Object> listed = new ArrayList<>();
        for (String subject : subjects.subList(0, Math.min(SUBJECTS, subjects.size()))) {
            listed.add(summary(history, subject, now));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("loaded", history.loaded());
        json.put("total_subjects", subjects.size());
        json.put("subjects", listed);
        return json;
    }

    @Override
    public @Nullable Object pageDetail(IncidentHistory history, String key, Instant now) {
        String subject;
        try {
            subject = new String(Base64.getUrlDecoder().decode(key), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        List<Incident> incidents = history.bySubject().get(subject);
        if (incidents == null) {
            return null;
        }
        Map<String, Object> json = summary(history, subject, now);
        json.put(
                "incidents",
                incidents.stream().map(incident -> incident(incident, now)).toList());
        return json;
    }

    @Override
    public String pageAssets() {
        return "io/observatory/incident/history/panel/";
    }

    @Override
    public Duration pageInterval() {
        return Duration.ofSeconds(5);
    }

    /** The subject's line: open incident, availability, strip. */
    private static Map<String, Object> summary(IncidentHistory history, String subject, Instant now) {
        List<Incident> incidents = history.bySubject().getOrDefault(subject, List.of());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("subject", subject);
        json.put(
                "key",
                Base64.getUrlEncoder().withoutPadding().encodeToString(subject.getBytes(StandardCharsets.UTF_8)));
        Incident open = history.open(subject);
        json.put("open", open == null ? null : incident(open, now));
        json.put(
                "availability",
                Map.of(
                        "day", Uptime.availability(incidents, now, Duration.ofDays(1)),
                        "week", Uptime.availability(incidents, now, Duration.ofDays(7)),
                        "month", Uptime.availability(incidents, now, Duration.ofDays(30))));
        StringBuilder strip = new StringBuilder(DAYS);
        for (int day : Uptime.strip(incidents, now, DAYS)) {
            strip.append(day);
        }
        json.put("strip", strip.toString());
        json.put("incidents_90d", incidents.size());
        return json;
    }

    private static Map<String, Object> incident(Incident incident, Instant now) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", incident.id());
        json.put("kind", incident.kind());
        json.put("severity", incident.severity().label());
        json.put("opened_at", incident.openedAt().toString());
        json.put(
                "resolved_at",
                incident.resolvedAt() == null ? null : incident.resolvedAt().toString());
        json.put("duration_seconds", incident.duration(now).toSeconds());
        json.put("reason", incident.reason());
        json.put("resolution", incident.resolution());
        json.put(
                "evidence",
                incident.evidence().stream()
                        .map(vantage -> vantage.name() + (vantage.site().isEmpty() ? "" : " (" + vantage.site() + ")")
                                + (vantage.checker() ? ", checker" : "") + ": " + vantage.detail())
                        .toList());
        return json;
    }
}
