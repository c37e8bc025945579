package io.observatory.incident.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.incident.Incident;
import io.observatory.incident.notify.Notice.Change;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.Condition.Vantage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What people read: the subject line, the advice for a blocked or unreachable server, the resolution. */
class NoticeTextTest {

    private static final Instant OPENED = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void plainWhenAServerIsBlockedThenItNamesTheCheckerTheServerAndSuggestsANewAddress() {
        Incident blocked = incident(
                "server/s4",
                "BLOCKED",
                "checker cannot reach s4/main: w1 (site de) streak 3",
                List.of(new Vantage("w1", "de", true, "cannot reach s4/main")));

        String text = NoticeText.plain(new Notice(List.of(new Entry(Change.OPENED, blocked))), OPENED);

        assertThat(NoticeText.subject(new Notice(List.of(new Entry(Change.OPENED, blocked)))))
                .isEqualTo("[Observatory] opened: server/s4 BLOCKED");
        assertThat(text)
                .contains("OPENED server/s4 BLOCKED (critical) at 2026-12-03 10:00:00 UTC")
                .contains("Checker w1 (de) cannot reach s4 while the other servers can")
                .contains("Consider changing its IP address.")
                .contains("w1 (site de), checker: cannot reach s4/main");
    }

    @Test
    void chatWhenUnreachableFromServersThenItListsTheVotersAndTheirSites() {
        Incident unreachable = incident(
                "server/s4",
                "UNREACHABLE_FROM_SERVERS",
                "cannot reach s4/main: w1 (site de) streak 3, w2 (site nl) streak 3",
                List.of(
                        new Vantage("w1", "de", false, "cannot reach s4/main"),
                        new Vantage("w2", "nl", false, "cannot reach s4/main")));

        String text = NoticeText.chat(new Notice(List.of(new Entry(Change.OPENED, unreachable))), OPENED);

        assertThat(text).contains("Unreachable from 2 of your servers: w1 (de), w2 (nl).");
    }

    @Test
    void subjectWhenSeveralThenCountsAndTheFirstThreeSubjects() {
        List<Entry> entries = List.of(
                new Entry(Change.OPENED, incident("outbound/a", "UNHEALTHY", "x", List.of())),
                new Entry(Change.OPENED, incident("outbound/b", "UNHEALTHY", "x", List.of())),
                new Entry(Change.OPENED, incident("outbound/c", "UNHEALTHY", "x", List.of())),
                new Entry(
                        Change.RESOLVED,
                        incident("outbound/d", "UNHEALTHY", "x", List.of())
                                .resolved(OPENED.plusSeconds(723), "now healthy")));

        assertThat(NoticeText.subject(new Notice(entries)))
                .isEqualTo("[Observatory] 3 opened, 1 resolved: outbound/a UNHEALTHY, outbound/b UNHEALTHY,"
                        + " outbound/c UNHEALTHY, …");
        assertThat(NoticeText.headline(entries.get(3), OPENED.plusSeconds(1000)))
                .isEqualTo("RESOLVED outbound/d UNHEALTHY (critical) after 12m3s: now healthy");
    }

    @Test
    void htmlWhenReasonHoldsMarkupThenEscaped() {
        Incident odd = incident("outbound/<b>", "UNHEALTHY", "<script>alert(1)</script>", List.of());

        String html = NoticeText.html(new Notice(List.of(new Entry(Change.OPENED, odd))), OPENED);

        assertThat(html).doesNotContain("<script>").contains("&lt;script&gt;");
    }

    static Incident incident(String subject, String kind, String reason, List<Vantage> evidence) {
        return new Incident(
                "id-" + subject,
                subject,
                subject.startsWith("server/") ? "mesh" : "outbounds",
                kind,
                Severity.CRITICAL,
                reason,
                subject.startsWith("server/") ? Map.of("route", "eu", "server", "s4") : Map.of(),
                evidence,
                OPENED,
                null,
                "");
    }
}
