package io.observatory.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.observatory.ObservatoryApplication;
import io.observatory.api.v1.Incident;
import io.observatory.api.v1.IncidentServiceGrpc;
import io.observatory.api.v1.IncidentState;
import io.observatory.api.v1.ListIncidentsRequest;
import io.observatory.api.v1.WatchIncidentsRequest;
import io.observatory.api.v1.WatchIncidentsResponse;
import io.observatory.health.HealthState;
import io.observatory.incident.store.IncidentStore;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.testing.ClosedPort;
import io.observatory.testing.TestTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * The service as an operator runs it, on SQLite and on PostgreSQL: an outbound whose target stops opens one incident,
 * seen by {@code ListIncidents} and {@code WatchIncidents} with its reason; a restart on the same database keeps it
 * open without a second one; the target's return resolves it. Two replicas on one PostgreSQL database store each
 * incident once, and exactly one of them wrote it.
 */
class IncidentIntegrationTest {

    static final List<String> KINDS = TestDatabases.KINDS;

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestDatabases databases;

    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();
    private TestTarget target;
    private int targetPort;

    @BeforeAll
    static void startDatabases() {
        databases = new TestDatabases();
    }

    @AfterAll
    static void stopDatabases() throws Exception {
        databases.close();
    }

    @AfterEach
    void stop() {
        channels.forEach(ManagedChannel::shutdownNow);
        services.forEach(ConfigurableApplicationContext::close);
        if (target != null) {
            target.close();
        }
    }

    @ParameterizedTest
    @FieldSource("KINDS")
    void outboundWhenItsTargetStopsThenOneIncidentOpensSurvivesARestartAndResolves(String kind) throws Exception {
        String url = databases.newUrl(kind);
        targetPort = ClosedPort.find();
        target = TestTarget.httpOn(targetPort);
        Service first = start(url);
        await().atMost(WAIT)
                .until(() ->
                        first.list(IncidentState.INCIDENT_STATE_UNSPECIFIED).isEmpty()
                                && first.store().reachable());

        target.close();
        target = null;
        Incident opened = await().atMost(WAIT)
                .until(() -> first.list(IncidentState.INCIDENT_STATE_OPEN), list -> list.size() == 1)
                .get(0);
        first.close();
        Service second = start(url);
        List<Object> watched = second.watch();
        await().atMost(WAIT)
                .until(() ->
                        second.store().openCount() == 1 && second.verdict().equals(Optional.of(HealthState.UNHEALTHY)));
        target = TestTarget.httpOn(targetPort);

        List<Incident> all = await().atMost(WAIT)
                .until(
                        () -> second.list(IncidentState.INCIDENT_STATE_UNSPECIFIED),
                        list -> list.size() == 1 && list.get(0).hasResolvedTime());
        assertThat(opened.getSubject()).isEqualTo("outbound/a");
        assertThat(opened.getKind()).isEqualTo("UNHEALTHY");
        assertThat(opened.getSeverity()).isEqualTo("critical");
        assertThat(opened.getReason()).isNotEmpty();
        assertThat(opened.getLabelsMap()).containsEntry("outbound", "a").containsEntry("error", "connection_refused");
        assertThat(all.get(0).getId())
                .as("the restarted service kept the incident open instead of opening a second one")
                .isEqualTo(opened.getId());
        assertThat(all.get(0).getResolution()).isEqualTo("now healthy");
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(watched)
                        .as("the stream: the open incidents, then the resolution (an error would be listed)")
                        .extracting(message ->
                                message instanceof WatchIncidentsResponse response ? response.getEventCase() : message)
                        .containsExactly(
                                WatchIncidentsResponse.EventCase.OPEN_INCIDENTS,
                                WatchIncidentsResponse.EventCase.RESOLVED));
        assertThat(((WatchIncidentsResponse) watched.get(0)).getOpenIncidents().getIncidentsList())
                .extracting(Incident::getId)
                .containsExactly(opened.getId());
        assertThat(((WatchIncidentsResponse) watched.get(1)).getResolved().getId())
                .isEqualTo(opened.getId());
    }

    @Test
    void replicasWhenTwoShareOnePostgresDatabaseThenEachIncidentIsStoredAndWrittenOnce() throws Exception {
        String url = databases.newUrl("postgresql");
        targetPort = ClosedPort.find();
        target = TestTarget.httpOn(targetPort);
        Service first = start(url);
        Service second = start(url);
        List<IncidentEvent> events = new CopyOnWriteArrayList<>();
        first.store().listen(events::add);
        second.store().listen(events::add);
        await().atMost(WAIT)
                .until(() -> first.store().reachable() && second.store().reachable());

        target.close();
        target = null;
        await().atMost(WAIT).until(() -> events.size() >= 2);
        target = TestTarget.httpOn(targetPort);
        await().atMost(WAIT).until(() -> events.size() >= 4);

        assertThat(first.list(IncidentState.INCIDENT_STATE_UNSPECIFIED))
                .singleElement()
                .satisfies(incident -> assertThat(incident.hasResolvedTime()).isTrue());
        assertThat(events)
                .as("both replicas hear the opening and the resolution; one of them wrote each")
                .extracting(event -> event.type() + " " + event.ours())
                .containsExactlyInAnyOrder("OPENED true", "OPENED false", "RESOLVED true", "RESOLVED false");
    }

    private Service start(String url) throws Exception {
        CompletableFuture<Integer> grpcPort = new CompletableFuture<>();
        ConfigurableApplicationContext service = new SpringApplicationBuilder(ObservatoryApplication.class)
                .listeners(event -> {
                    if (event instanceof GrpcServerStartedEvent started) {
                        grpcPort.complete(started.getPort());
                    }
                })
                .run(
                        "--spring.grpc.server.port=0",
                        "--server.port=0",
                        "--spring.datasource.url=" + url,
                        "--observatory.outbounds[0].tag=a",
                        "--observatory.outbounds[0].protocol=direct",
                        "--observatory.standard.subject-selector[0]=a",
                        "--observatory.standard.probe-url=http://127.0.0.1:" + targetPort + "/",
                        "--observatory.standard.probe-interval=200ms",
                        "--observatory.standard.timeout=1s");
        services.add(service);
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort.get(10, TimeUnit.SECONDS))
                .usePlaintext()
                .build();
        channels.add(channel);
        return new Service(service, channel);
    }

    /** One running service and a channel to it. */
    private record Service(ConfigurableApplicationContext context, ManagedChannel channel) {

        IncidentStore store() {
            return context.getBean(IncidentStore.class);
        }

        Optional<HealthState> verdict() {
            return context.getBean(ObservationStore.class).current().get("a").map(OutboundHealth::verdict);
        }

        List<Incident> list(IncidentState state) {
            return IncidentServiceGrpc.newBlockingStub(channel)
                    .listIncidents(ListIncidentsRequest.newBuilder()
                            .setSubjectPrefix("outbound/")
                            .setState(state)
                            .build())
                    .getIncidentsList();
        }

        /** What the stream brings: each message, and its error if it fails. */
        List<Object> watch() {
            List<Object> seen = new CopyOnWriteArrayList<>();
            IncidentServiceGrpc.newStub(channel)
                    .watchIncidents(WatchIncidentsRequest.newBuilder().build(), new StreamObserver<>() {
                        @Override
                        public void onNext(WatchIncidentsResponse value) {
                            seen.add(value);
                        }

                        @Override
                        public void onError(Throwable t) {
                            seen.add(t);
                        }

                        @Override
                        public void onCompleted() {}
                    });
            return seen;
        }

        void close() {
            context.close();
        }
    }
}
