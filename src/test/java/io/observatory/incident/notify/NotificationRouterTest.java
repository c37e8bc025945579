package io.observatory.incident.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.notify.Notice.Entry;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.testing.FakeScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Routing, grouping, repeating and recovery on fake time; and what another replica wrote stays untold here. */
class NotificationRouterTest {

    private static final Instant OPENED = Instant.parse("2026-12-03T10:00:00Z");

    private final FakeScheduler thread = new FakeScheduler();
    private final List<String> email = new ArrayList<>();
    private final List<String> telegram = new ArrayList<>();

    @Test
    void acceptWhenTenOpenWithinTheGroupWaitThenOneMessage() {
        NotificationRouter router = router(settings(List.of(), Duration.ofHours(4), true));

        for (int i = 0; i < 10; i++) {
            router.accept(opened("outbound/o" + i, Severity.CRITICAL, true));
        }
        thread.advance(Duration.ofSeconds(9));
        assertThat(email).isEmpty();
        thread.advance(Duration.ofSeconds(1));

        assertThat(email)
                .singleElement()
                .satisfies(message -> assertThat(message).startsWith("10 opened"));
        assertThat(telegram).hasSize(1);
    }

    @Test
    void acceptWhenRoutesThenEachChannelHearsItsOwn() {
        NotificationRouter router = router(settings(
                List.of(
                        new NotificationRoute(List.of("tg"), List.of("server/"), List.of("BLOCKED"), List.of()),
                        new NotificationRoute(List.of("email"), List.of(), List.of(), List.of("critical"))),
                Duration.ZERO,
                true));

        router.accept(opened("server/s4", Severity.CRITICAL, true));
        router.accept(opened("entry-point/s2/main", Severity.WARNING, true));
        thread.advance(Duration.ofSeconds(10));

        assertThat(telegram).containsExactly("1 opened: server/s4");
        assertThat(email).containsExactly("1 opened: server/s4");
    }

    @Test
    void acceptWhenOpenPastTheRepeatIntervalThenToldAgainUntilResolved() {
        NotificationRouter router = router(settings(List.of(), Duration.ofHours(4), true));
        Incident incident = incident("server/s4", Severity.CRITICAL);

        router.accept(new IncidentEvent(IncidentEvent.Type.OPENED, incident, true));
        thread.advance(Duration.ofHours(4).plusSeconds(10));
        router.accept(new IncidentEvent(
                IncidentEvent.Type.RESOLVED, incident.resolved(OPENED.plusSeconds(5 * 3600), "recovered"), true));
        thread.advance(Duration.ofHours(10));

        assertThat(email).containsExactly("1 opened: server/s4", "1 still open: server/s4", "1 resolved: server/s4");
    }

    @Test
    void acceptWhenAnotherReplicaWroteItOrRecoveryIsOffThenNotTold() {
        NotificationRouter router = router(settings(List.of(), Duration.ZERO, false));
        Incident incident = incident("server/s4", Severity.CRITICAL);

        router.accept(new IncidentEvent(IncidentEvent.Type.OPENED, incident, false));
        router.accept(new IncidentEvent(IncidentEvent.Type.RESOLVED, incident.resolved(OPENED, "recovered"), true));
        thread.advance(Duration.ofMinutes(1));

        assertThat(email).isEmpty();
    }

    private NotificationRouter router(NotificationSettings settings) {
        return new NotificationRouter(
                settings,
                thread,
                List.of(
                        new ChannelQueue(channel("email", email), thread, 100),
                        new ChannelQueue(channel("tg", telegram), thread, 100)));
    }

    private static Channel channel(String name, List<String> sent) {
        return new Channel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void send(Notice notice) {
                List<Entry> entries = notice.entries();
                sent.add(entries.size() + " "
                        + NoticeText.subject(notice)
                                .replaceFirst("^\\[Observatory\\] (\\d+ )?", "")
                                .replaceFirst(" (UNHEALTHY|BLOCKED|PAIR_CUT).*$", ""));
            }
        };
    }

    private static NotificationSettings settings(List<NotificationRoute> routes, Duration repeat, boolean recovery) {
        return new NotificationSettings(
                null,
                List.of(new WebhookSettings(
                        "tg",
                        null,
                        WebhookSettings.Format.TELEGRAM,
                        null,
                        null,
                        "t",
                        null,
                        "1",
                        Duration.ofSeconds(10))),
                null,
                routes,
                Duration.ofSeconds(10),
                repeat,
                recovery,
                100);
    }

    private static IncidentEvent opened(String subject, Severity severity, boolean ours) {
        return new IncidentEvent(IncidentEvent.Type.OPENED, incident(subject, severity), ours);
    }

    private static Incident incident(String subject, Severity severity) {
        return new Incident(
                "id-" + subject,
                subject,
                "mesh",
                severity == Severity.CRITICAL ? "BLOCKED" : "PAIR_CUT",
                severity,
                "why",
                Map.of(),
                List.of(),
                OPENED,
                null,
                "");
    }
}
