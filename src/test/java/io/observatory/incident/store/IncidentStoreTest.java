package io.observatory.incident.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.TestDatabases;
import io.observatory.incident.Transition;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.PostgresServer;
import io.observatory.time.ExecutorScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The store against a real PostgreSQL server that goes down and comes back: transitions offered meanwhile wait in the
 * queue, the outage is logged once when it starts and once when it ends, and every one is recorded once the database
 * answers; beyond the queue's bound the newest are dropped and counted.
 */
@ExtendWith(OutputCaptureExtension.class)
class IncidentStoreTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    private final TestDatabases databases = new TestDatabases();
    private final ExecutorScheduler thread = new ExecutorScheduler("incident-store-test", System::nanoTime);

    @AfterEach
    void stop() throws Exception {
        thread.close();
        databases.close();
    }

    @Test
    void offerWhenTheDatabaseIsDownThenQueuedLoggedOnceAndRecordedWhenItIsBack(CapturedOutput output) throws Exception {
        String url = databases.newUrl("postgresql");
        IncidentRepository repository = new IncidentRepository(databases.pool(url));
        IncidentStore store = new IncidentStore(repository, thread, Clock.systemUTC(), 5, Duration.ofDays(90));
        List<IncidentEvent> events = new CopyOnWriteArrayList<>();
        store.listen(events::add);
        store.start(open -> {});
        await().atMost(Duration.ofSeconds(10)).until(store::reachable);
        PostgresServer postgres = databases.postgres();

        postgres.stop();
        for (int i = 0; i < 7; i++) {
            store.offer(IncidentRepositoryTest.open("outbound/o" + i, "UNHEALTHY", T0.plusSeconds(i)));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !store.reachable());
        assertThat(store.queued()).isEqualTo(5);
        assertThat(store.dropped()).as("beyond the bound of 5").isEqualTo(2);
        postgres.restart();

        await().atMost(Duration.ofSeconds(30)).until(() -> events.size() == 5);
        assertThat(store.queued()).isZero();
        assertThat(store.reachable()).isTrue();
        assertThat(repository.open())
                .extracting(Incident::subject)
                .containsExactly("outbound/o0", "outbound/o1", "outbound/o2", "outbound/o3", "outbound/o4");
        assertThat(output.getOut())
                .containsOnlyOnce("incident database unreachable")
                .containsOnlyOnce("incident database reachable again")
                .containsOnlyOnce("incident queue full (5 transitions waiting for the database)");
        assertThat(events).allSatisfy(event -> assertThat(event.ours()).isTrue());
    }

    @Test
    void pruneWhenAnHourPassesThenResolvedIncidentsPastTheRetentionAreDeleted() throws Exception {
        FakeScheduler fake = new FakeScheduler();
        Instant start = Instant.parse("2026-12-03T12:00:00Z");
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return start.plusNanos(fake.nanoTime());
            }
        };
        IncidentRepository repository = new IncidentRepository(databases.pool(databases.newUrl("sqlite")));
        IncidentStore store = new IncidentStore(repository, fake, clock, 100, Duration.ofDays(90));
        store.start(open -> {});
        store.offer(IncidentRepositoryTest.open("outbound/old", "UNHEALTHY", start.minus(Duration.ofDays(91))));
        store.offer(new Transition.Resolve(
                "outbound/old", "UNHEALTHY", start.minus(Duration.ofDays(90)).plusSeconds(1800), "now healthy"));
        store.offer(IncidentRepositoryTest.open("outbound/new", "UNHEALTHY", start.minus(Duration.ofDays(1))));
        fake.runDue();
        assertThat(repository.list(all()))
                .as("resolved 89 days 23.5 hours ago: kept")
                .hasSize(2);

        fake.advance(IncidentStore.PRUNE_INTERVAL);

        assertThat(repository.list(all()))
                .as("an hour on, past the 90 days: deleted; the open one stays")
                .extracting(Incident::subject)
                .containsExactly("outbound/new");
    }

    private static IncidentQuery all() {
        return new IncidentQuery("", IncidentQuery.State.ANY, null, null, null, 100);
    }

    @Test
    void startWhenTheDatabaseIsDownThenTheSchemaAndTheRestoreWaitForIt() throws Exception {
        String url = databases.newUrl("postgresql");
        IncidentRepository first = new IncidentRepository(databases.pool(url));
        first.migrate();
        first.apply(List.of(IncidentRepositoryTest.open("server/s4", "BLOCKED", T0)));
        PostgresServer postgres = databases.postgres();
        postgres.stop();
        List<List<Incident>> restored = new CopyOnWriteArrayList<>();
        IncidentStore store = new IncidentStore(
                new IncidentRepository(databases.pool(url)), thread, Clock.systemUTC(), 100, Duration.ofDays(90));

        store.start(restored::add);
        store.offer(new Transition.Resolve("server/s4", "BLOCKED", T0.plusSeconds(60), "recovered"));
        await().atMost(Duration.ofSeconds(10)).until(() -> !store.reachable() && store.queued() == 1);
        assertThat(restored).isEmpty();
        postgres.restart();

        await().atMost(Duration.ofSeconds(30)).until(() -> store.queued() == 0 && store.reachable());
        assertThat(restored)
                .singleElement()
                .satisfies(
                        open -> assertThat(open).extracting(Incident::subject).containsExactly("server/s4"));
        assertThat(new IncidentRepository(databases.pool(url)).open())
                .as("the resolution queued during the outage, recorded")
                .isEmpty();
    }
}
