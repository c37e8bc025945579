package io.observatory.incident.notify;

import io.observatory.incident.Incident;
import io.observatory.incident.notify.Notice.Change;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.snapshot.Condition.Vantage;
import io.observatory.text.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.web.util.HtmlUtils;

/**
 * A notice in words, the same in every channel: a subject line, the plain text and HTML of an e-mail, the short text
 * of a chat message. Each incident says what happened, to what, why, and what to do where the kind says it: a BLOCKED
 * server names the checkers that cannot reach it from where they stand and suggests changing its IP address (the
 * CreateYourVPN design this product started from); UNREACHABLE_FROM_SERVERS lists the voting servers and their sites.
 */
final class NoticeText {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private NoticeText() {}

    /**
     * E.g. {@code [Observatory] opened: server/s4 BLOCKED} or
     * {@code [Observatory] 3 opened, 1 resolved: outbound/a UNHEALTHY, …}.
     */
    static String subject(Notice notice) {
        List<Entry> entries = notice.entries();
        String counts = List.of(Change.OPENED, Change.RESOLVED, Change.STILL_OPEN).stream()
                .filter(change -> notice.count(change) > 0)
                .map(change -> (entries.size() == 1 ? "" : notice.count(change) + " ") + word(change))
                .collect(Collectors.joining(", "));
        String subjects = entries.stream()
                .limit(3)
                .map(entry ->
                        entry.incident().subject() + " " + entry.incident().kind())
                .collect(Collectors.joining(", "));
        return "[Observatory] " + counts + ": " + subjects + (entries.size() > 3 ? ", …" : "");
    }

    /** The e-mail's plain text: one block per incident. */
    static String plain(Notice notice, Instant now) {
        StringBuilder text = new StringBuilder();
        for (Entry entry : notice.entries()) {
            Incident incident = entry.incident();
            text.append(headline(entry, now)).append('\n');
            text.append("  ").append(incident.reason()).append('\n');
            String advice = advice(incident);
            if (!advice.isEmpty()) {
                text.append("  ").append(advice).append('\n');
            }
            for (Vantage vantage : incident.evidence()) {
                text.append("  - ").append(vantage(vantage)).append('\n');
            }
            if (!incident.labels().isEmpty()) {
                text.append("  ").append(labels(incident)).append('\n');
            }
            text.append("  incident ").append(incident.id()).append("\n\n");
        }
        return text.toString();
    }

    /** The e-mail's HTML: the same blocks, escaped. */
    static String html(Notice notice, Instant now) {
        StringBuilder html = new StringBuilder("<html><body style=\"font-family: sans-serif\">");
        for (Entry entry : notice.entries()) {
            Incident incident = entry.incident();
            html.append("<h3 style=\"color: ")
                    .append(entry.change() == Change.RESOLVED ? "#2e7d32" : "#c62828")
                    .append("\">")
                    .append(escape(headline(entry, now)))
                    .append("</h3><p>")
                    .append(escape(incident.reason()))
                    .append("</p>");
            String advice = advice(incident);
            if (!advice.isEmpty()) {
                html.append("<p><strong>").append(escape(advice)).append("</strong></p>");
            }
            if (!incident.evidence().isEmpty()) {
                html.append("<ul>");
                incident.evidence()
                        .forEach(vantage -> html.append("<li>")
                                .append(escape(vantage(vantage)))
                                .append("</li>"));
                html.append("</ul>");
            }
            html.append("<p style=\"color: #666\">")
                    .append(escape(labels(incident)))
                    .append("<br>incident ")
                    .append(escape(incident.id()))
                    .append("</p>");
        }
        return html.append("</body></html>").toString();
    }

    /** A chat message: one line per incident, with its advice. */
    static String chat(Notice notice, Instant now) {
        return notice.entries().stream()
                .map(entry -> {
                    String advice = advice(entry.incident());
                    return (entry.change() == Change.RESOLVED ? "✅ " : "🔴 ") + headline(entry, now) + ": "
                            + entry.incident().reason() + (advice.isEmpty() ? "" : ". " + advice);
                })
                .collect(Collectors.joining("\n"));
    }

    /**
     * E.g. {@code OPENED server/s4 BLOCKED (critical) at 2026-12-03 10:00:00 UTC} or
     * {@code RESOLVED server/s4 BLOCKED after 12m3s: recovered}.
     */
    static String headline(Entry entry, Instant now) {
        Incident incident = entry.incident();
        String what = incident.subject() + " " + incident.kind() + " ("
                + incident.severity().label() + ")";
        return switch (entry.change()) {
            case OPENED -> "OPENED " + what + " at " + TIME.format(incident.openedAt());
            case RESOLVED ->
                "RESOLVED " + what + " after " + duration(incident.duration(now)) + ": " + incident.resolution();
            case STILL_OPEN ->
                "STILL OPEN " + what + " since " + TIME.format(incident.openedAt()) + " ("
                        + duration(incident.duration(now)) + ")";
        };
    }

    /** What to do, where the kind says it; empty otherwise. */
    static String advice(Incident incident) {
        String server = incident.labels().getOrDefault("server", incident.subject());
        List<Vantage> evidence = incident.evidence();
        return switch (incident.kind()) {
            case "BLOCKED" ->
                (evidence.isEmpty()
                                ? "The checkers"
                                : (distinct(evidence) > 1 ? "Checkers " : "Checker ") + names(evidence))
                        + " cannot reach " + server
                        + " while the other servers can: its address is probably blocked where the checkers stand."
                        + " Consider changing its IP address.";
            case "UNREACHABLE_FROM_SERVERS" ->
                "Unreachable from " + distinct(evidence) + " of your servers: " + names(evidence) + ".";
            default -> "";
        };
    }

    private static String names(List<Vantage> evidence) {
        return evidence.stream()
                .map(vantage -> vantage.name() + (vantage.site().isEmpty() ? "" : " (" + vantage.site() + ")"))
                .distinct()
                .collect(Collectors.joining(", "));
    }

    private static long distinct(List<Vantage> evidence) {
        return evidence.stream().map(Vantage::name).distinct().count();
    }

    private static String vantage(Vantage vantage) {
        return vantage.name() + (vantage.site().isEmpty() ? "" : " (site " + vantage.site() + ")")
                + (vantage.checker() ? ", checker" : "") + ": " + vantage.detail();
    }

    private static String labels(Incident incident) {
        return incident.labels().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(label -> label.getKey() + "=" + label.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String word(Change change) {
        return switch (change) {
            case OPENED -> "opened";
            case RESOLVED -> "resolved";
            case STILL_OPEN -> "still open";
        };
    }

    private static String duration(Duration duration) {
        return GoDuration.format(duration.truncatedTo(ChronoUnit.SECONDS));
    }

    private static String escape(String text) {
        return HtmlUtils.htmlEscape(text);
    }
}
