package io.observatory.incident.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.TestDatabases;
import io.observatory.incident.Transition;
import io.observatory.snapshot.Condition;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.Condition.Vantage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The incidents' table on SQLite and on PostgreSQL, with the same SQL: opening, resolving, a change of kind, two
 * replicas recording the same transitions (one write each wins), listing with filters and pages, retention.
 */
class IncidentRepositoryTest {

    static final List<String> KINDS = TestDatabases.KINDS;

    static final List<String> SHARED = List.of("postgresql");

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    private static TestDatabases databases;

    @BeforeAll
    static void startDatabases() {
        databases = new TestDatabases();
    }

    @AfterAll
    static void stopDatabases() throws Exception {
        databases.close();
    }

    @ParameterizedTest
    @FieldSource("KINDS")
    void openWhenResolvedThenListedWithItsReasonEvidenceAndDuration(String kind) throws Exception {
        IncidentRepository repository = repository(databases.newUrl(kind));

        List<IncidentEvent> opened = repository.apply(List.of(open("server/s4", "BLOCKED", T0)));
        List<IncidentEvent> resolved = repository.apply(
                List.of(new Transition.Resolve("server/s4", "BLOCKED", T0.plusSeconds(90), "recovered")));

        assertThat(opened).singleElement().satisfies(event -> {
            assertThat(event.type()).isEqualTo(IncidentEvent.Type.OPENED);
            assertThat(event.ours()).isTrue();
        });
        assertThat(resolved).singleElement().satisfies(event -> {
            assertThat(event.type()).isEqualTo(IncidentEvent.Type.RESOLVED);
            assertThat(event.ours()).isTrue();
        });
        Incident stored = repository.list(all()).get(0);
        assertThat(stored.subject()).isEqualTo("server/s4");
        assertThat(stored.source()).isEqualTo("mesh");
        assertThat(stored.reason()).isEqualTo("checker cannot reach s4/main: w1 (site de) streak 3");
        assertThat(stored.labels()).containsEntry("route", "eu").containsEntry("server", "s4");
        assertThat(stored.evidence()).containsExactly(new Vantage("w1", "de", true, "cannot reach s4/main"));
        assertThat(stored.duration(T0.plusSeconds(1000))).isEqualTo(Duration.ofSeconds(90));
        assertThat(stored.resolution()).isEqualTo("recovered");
        assertThat(stored.id()).isEqualTo(opened.get(0).incident().id());
    }

    @ParameterizedTest
    @FieldSource("KINDS")
    void openWhenKindChangesThenTheOldResolvesAsBecomingTheNew(String kind) throws Exception {
        IncidentRepository repository = repository(databases.newUrl(kind));
        repository.apply(List.of(open("server/s4", "UNREACHABLE_FROM_SERVERS", T0)));

        List<IncidentEvent> events = repository.apply(List.of(open("server/s4", "BLOCKED", T0.plusSeconds(30))));

        assertThat(events)
                .extracting(event -> event.type() + " " + event.incident().kind() + " "
                        + event.incident().resolution())
                .containsExactly("RESOLVED UNREACHABLE_FROM_SERVERS became BLOCKED", "OPENED BLOCKED ");
        assertThat(repository.open()).extracting(Incident::kind).containsExactly("BLOCKED");
    }

    /** Several replicas share PostgreSQL; an SQLite file has one writer, its one process. */
    @ParameterizedTest
    @FieldSource("SHARED")
    void applyWhenTwoReplicasRecordTheSameTransitionsThenEachIsStoredAndOursOnce(String kind) throws Exception {
        String url = databases.newUrl(kind);
        IncidentRepository first = repository(url);
        IncidentRepository second = repository(url);
        first.migrate();
        List<Transition> story = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            story.add(open("outbound/o" + i, "UNHEALTHY", T0.plusMillis(i)));
        }
        for (int i = 0; i < 50; i++) {
            story.add(new Transition.Resolve("outbound/o" + i, "UNHEALTHY", T0.plusSeconds(60 + i), "now healthy"));
        }

        ExecutorService replicas = Executors.newFixedThreadPool(2);
        List<IncidentEvent> events = new ArrayList<>();
        try {
            List<Callable<List<IncidentEvent>>> both = new ArrayList<>();
            for (IncidentRepository replica : List.of(first, second)) {
                both.add(() -> {
                    List<IncidentEvent> seen = new ArrayList<>();
                    for (Transition transition : story) {
                        seen.addAll(replica.apply(List.of(transition)));
                    }
                    return seen;
                });
            }
            for (Future<List<IncidentEvent>> replica : replicas.invokeAll(both)) {
                events.addAll(replica.get());
            }
        } finally {
            replicas.shutdownNow();
        }

        assertThat(first.list(all()))
                .hasSize(50)
                .allSatisfy(incident -> assertThat(incident.open()).isFalse());
        assertThat(events.stream().filter(IncidentEvent::ours))
                .as("each opening and each resolution written by exactly one replica")
                .hasSize(100)
                .extracting(event -> event.type() + " " + event.incident().subject())
                .doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @FieldSource("KINDS")
    void openWhenAnotherReplicaRecordedThePeriodAlreadyThenAdoptedNotStoredTwice(String kind) throws Exception {
        IncidentRepository repository = repository(databases.newUrl(kind));
        repository.apply(List.of(
                open("server/s4", "BLOCKED", T0.plusSeconds(5)),
                new Transition.Resolve("server/s4", "BLOCKED", T0.plusSeconds(60), "recovered")));

        List<IncidentEvent> lagging = repository.apply(List.of(
                open("server/s4", "BLOCKED", T0),
                new Transition.Resolve("server/s4", "BLOCKED", T0.plusSeconds(58), "recovered")));

        assertThat(lagging)
                .as("a replica that judged 5 s earlier and records later: the same period, not ours")
                .extracting(event -> event.type() + " " + event.ours())
                .containsExactly("OPENED false", "RESOLVED false");
        assertThat(repository.list(all())).hasSize(1);
    }

    @ParameterizedTest
    @FieldSource("KINDS")
    void listWhenFilteredAndPagedThenNewestFirstWithinTheRange(String kind) throws Exception {
        IncidentRepository repository = repository(databases.newUrl(kind));
        List<Transition> story = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            story.add(open("outbound/eu-" + i, "UNHEALTHY", T0.plusSeconds(i * 100L)));
            story.add(new Transition.Resolve(
                    "outbound/eu-" + i, "UNHEALTHY", T0.plusSeconds(i * 100L + 50), "now healthy"));
        }
        story.add(open("outbound/eu-9", "UNHEALTHY", T0.plusSeconds(1000)));
        story.add(open("server/s1", "NO_DATA", T0.plusSeconds(1000)));
        repository.apply(story);

        List<Incident> firstPage =
                repository.list(new IncidentQuery("outbound/eu-", IncidentQuery.State.ANY, null, null, null, 4));
        Incident last = firstPage.get(3);
        List<Incident> secondPage = repository.list(new IncidentQuery(
                "outbound/eu-",
                IncidentQuery.State.ANY,
                null,
                null,
                new IncidentQuery.Position(last.openedAt(), last.id()),
                4));

        assertThat(firstPage)
                .extracting(Incident::subject)
                .containsExactly("outbound/eu-9", "outbound/eu-4", "outbound/eu-3", "outbound/eu-2");
        assertThat(secondPage).extracting(Incident::subject).containsExactly("outbound/eu-1", "outbound/eu-0");
        assertThat(repository.list(new IncidentQuery("", IncidentQuery.State.OPEN, null, null, null, 10)))
                .extracting(Incident::subject)
                .containsExactlyInAnyOrder("outbound/eu-9", "server/s1");
        assertThat(repository.list(new IncidentQuery(
                        "outbound/", IncidentQuery.State.RESOLVED, T0.plusSeconds(160), T0.plusSeconds(300), null, 10)))
                .as("overlapping [160 s, 300 s): eu-1 ended at 150 s, eu-3 opened at 300 s")
                .extracting(Incident::subject)
                .containsExactly("outbound/eu-2");
        assertThat(repository.list(new IncidentQuery("OUTBOUND/", IncidentQuery.State.ANY, null, null, null, 10)))
                .as("prefixes match case-sensitively on both databases")
                .isEmpty();
    }

    @ParameterizedTest
    @FieldSource("KINDS")
    void pruneWhenPastTheRetentionThenOnlyOldResolvedIncidentsGo(String kind) throws Exception {
        IncidentRepository repository = repository(databases.newUrl(kind));
        repository.apply(List.of(
                open("outbound/old", "UNHEALTHY", T0),
                new Transition.Resolve("outbound/old", "UNHEALTHY", T0.plusSeconds(60), "now healthy"),
                open("outbound/recent", "UNHEALTHY", T0.plus(Duration.ofDays(80))),
                new Transition.Resolve("outbound/recent", "UNHEALTHY", T0.plus(Duration.ofDays(81)), "now healthy"),
                open("outbound/still-open", "UNHEALTHY", T0)));

        int deleted = repository.prune(
                T0.plus(Duration.ofDays(90)).minus(Duration.ofDays(90)).plusSeconds(61));

        assertThat(deleted).isEqualTo(1);
        assertThat(repository.list(all()))
                .extracting(Incident::subject)
                .containsExactlyInAnyOrder("outbound/recent", "outbound/still-open");
    }

    private static IncidentRepository repository(String url) {
        IncidentRepository repository = new IncidentRepository(databases.pool(url));
        repository.migrate();
        return repository;
    }

    private static IncidentQuery all() {
        return new IncidentQuery("", IncidentQuery.State.ANY, null, null, null, 1000);
    }

    static Transition.Open open(String subject, String kind, Instant at) {
        boolean server = subject.startsWith("server/");
        Condition condition = new Condition(
                subject,
                kind,
                Severity.CRITICAL,
                server ? "checker cannot reach s4/main: w1 (site de) streak 3" : "3 probes failed",
                server ? Map.of("route", "eu", "server", subject.substring(7)) : Map.of("outbound", subject),
                server ? List.of(new Vantage("w1", "de", true, "cannot reach s4/main")) : List.of());
        return new Transition.Open(condition, server ? "mesh" : "outbounds", at);
    }
}
