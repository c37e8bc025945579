package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import io.observatory.config.ObservatoryConfig;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.FakeScheduler;
import io.observatory.testing.ObserverOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A real {@link ObservationUpdater} on a fake writer feeds the listener; a real {@link HealthStatusManager} is served
 * on a real gRPC port and read through the generated {@link HealthGrpc} stubs, as a grpc.health.v1 client would.
 */
class OutboundHealthStatusesTest {

    private final FakeScheduler scheduler = new FakeScheduler();
    private final HealthStatusManager health = new HealthStatusManager();
    private ObservationUpdater updater;
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void start() throws IOException {
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(health.getHealthService())
                .build()
                .start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private static ObservatoryConfig config(String... tags) {
        return Configs.direct(List.of(tags));
    }

    /** An updater over {@code tags} (every outbound UNKNOWN), and the listener on its observation. */
    private void updaterWithListener(String... tags) {
        updater = new ObservationUpdater(config(tags), scheduler, scheduler.clock());
        new OutboundHealthStatuses(health, updater.store());
        scheduler.runDue();
    }

    private void reconfigure(ObservatoryConfig next) {
        scheduler.execute(() -> updater.reconfigure(next));
    }

    private void observeNothing() {
        scheduler.execute(() -> ObserverOutput.publish(updater, List.of()));
    }

    /** Publishes one observation holding only {@code tag}, with the given active state. */
    private void observe(String tag, HealthState active) {
        ActiveHealth activeHealth = switch (active) {
            case HEALTHY -> new ActiveHealth(HealthState.HEALTHY, 1, 0);
            case UNHEALTHY -> new ActiveHealth(HealthState.UNHEALTHY, 0, 1);
            case UNKNOWN, DEGRADED -> ActiveHealth.INITIAL;
        };
        scheduler.advance(Duration.ofSeconds(1));
        OutboundStatus status = new OutboundStatus(
                tag, active == HealthState.HEALTHY, 12, "", null, null, null, null, activeHealth, "probe " + active);
        scheduler.execute(() -> ObserverOutput.publish(updater, List.of(status)));
        scheduler.runDue();
    }

    private ServingStatus check(String service) {
        return HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .check(HealthCheckRequest.newBuilder().setService(service).build())
                .getStatus();
    }

    /** Opens a Watch on {@code service}; the returned list collects what the stream delivers. */
    private List<ServingStatus> watch(String service) {
        List<ServingStatus> received = new CopyOnWriteArrayList<>();
        HealthGrpc.newStub(channel)
                .watch(HealthCheckRequest.newBuilder().setService(service).build(), new StreamObserver<>() {
                    @Override
                    public void onNext(HealthCheckResponse response) {
                        received.add(response.getStatus());
                    }

                    @Override
                    public void onError(Throwable t) {
                        received.add(ServingStatus.UNRECOGNIZED);
                    }

                    @Override
                    public void onCompleted() {
                        received.add(ServingStatus.UNRECOGNIZED);
                    }
                });
        return received;
    }

    @Test
    void checkWhenOutboundNotJudgedYetThenUnknown() {
        updaterWithListener("proxy-a", "proxy-b");

        assertThat(check("outbound/proxy-a")).isEqualTo(ServingStatus.UNKNOWN);
        assertThat(check("outbound/proxy-b")).isEqualTo(ServingStatus.UNKNOWN);
    }

    @ParameterizedTest
    @CsvSource({"HEALTHY, SERVING", "UNHEALTHY, NOT_SERVING", "UNKNOWN, UNKNOWN"})
    void checkWhenVerdictDecidedThenServedStatusFollowsIt(HealthState verdict, ServingStatus expected) {
        updaterWithListener("proxy-a");

        observe("proxy-a", verdict);

        assertThat(updater.store().current().get("proxy-a").orElseThrow().verdict())
                .isEqualTo(verdict);
        assertThat(check("outbound/proxy-a")).isEqualTo(expected);
    }

    @Test
    void checkWhenTagNotConfiguredThenNotFound() {
        updaterWithListener("proxy-a");

        StatusRuntimeException refused =
                catchThrowableOfType(StatusRuntimeException.class, () -> check("outbound/proxy-z"));

        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    }

    @Test
    void checkWhenListenerAttachedAfterFirstObservationThenServedFromTheCurrentObservation() {
        updater = new ObservationUpdater(config("proxy-a"), scheduler, scheduler.clock());
        scheduler.runDue();
        observe("proxy-a", HealthState.HEALTHY);

        new OutboundHealthStatuses(health, updater.store());
        scheduler.runDue();

        assertThat(check("outbound/proxy-a")).isEqualTo(ServingStatus.SERVING);
    }

    @Test
    void watchWhenVerdictChangesThenStreamHearsEachRealChangeOnce() {
        updaterWithListener("proxy-a");
        List<ServingStatus> watched = watch("outbound/proxy-a");
        await().atMost(Duration.ofSeconds(5)).until(() -> watched.size() == 1);

        observe("proxy-a", HealthState.HEALTHY);
        observe("proxy-a", HealthState.HEALTHY);
        observe("proxy-a", HealthState.UNHEALTHY);
        observe("proxy-a", HealthState.UNHEALTHY);
        observe("proxy-a", HealthState.HEALTHY);

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(watched)
                        .containsExactly(
                                ServingStatus.UNKNOWN,
                                ServingStatus.SERVING,
                                ServingStatus.NOT_SERVING,
                                ServingStatus.SERVING));
    }

    @Test
    void watchWhenOutboundRemovedThenServiceUnknownAndStreamStaysOpen() {
        updaterWithListener("proxy-a", "proxy-b");
        observe("proxy-a", HealthState.HEALTHY);
        List<ServingStatus> watched = watch("outbound/proxy-a");
        await().atMost(Duration.ofSeconds(5)).until(() -> watched.size() == 1);

        reconfigure(config("proxy-b"));
        observeNothing();
        scheduler.runDue();
        reconfigure(config("proxy-a", "proxy-b"));
        scheduler.runDue();

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(watched)
                        .containsExactly(ServingStatus.SERVING, ServingStatus.SERVICE_UNKNOWN, ServingStatus.UNKNOWN));
        assertThat(check("outbound/proxy-b")).isEqualTo(ServingStatus.UNKNOWN);
    }

    @Test
    void watchWhenTagNotConfiguredThenServiceUnknownUntilItIsAdded() {
        updaterWithListener("proxy-a");
        List<ServingStatus> watched = watch("outbound/proxy-new");
        await().atMost(Duration.ofSeconds(5)).until(() -> watched.size() == 1);

        reconfigure(config("proxy-a", "proxy-new"));
        scheduler.runDue();
        observe("proxy-new", HealthState.HEALTHY);

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(watched)
                        .containsExactly(ServingStatus.SERVICE_UNKNOWN, ServingStatus.UNKNOWN, ServingStatus.SERVING));
    }

    @Test
    void shutdownWhenTerminalStateEnteredThenEveryOutboundNotServingForGood() {
        updaterWithListener("proxy-a", "proxy-b");
        observe("proxy-a", HealthState.HEALTHY);
        List<ServingStatus> watched = watch("outbound/proxy-a");
        await().atMost(Duration.ofSeconds(5)).until(() -> watched.size() == 1);

        new GrpcServingStatus(health).shuttingDown();
        observe("proxy-b", HealthState.HEALTHY);
        reconfigure(config("proxy-b"));
        scheduler.runDue();

        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () -> assertThat(watched).containsExactly(ServingStatus.SERVING, ServingStatus.NOT_SERVING));
        assertThat(check("outbound/proxy-a")).isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(check("outbound/proxy-b")).isEqualTo(ServingStatus.NOT_SERVING);
    }
}
