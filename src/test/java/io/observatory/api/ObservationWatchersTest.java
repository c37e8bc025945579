package io.observatory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.ObservatoryServiceGrpc;
import io.observatory.api.v1.WatchObservationRequest;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.config.Outbound;
import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.testing.ObserverOutput;
import io.observatory.testing.RecordingObserver;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;

/** Watch streams over a real loopback gRPC server, fed by a real observation updater on its own writer. */
class ObservationWatchersTest {

    private final ExecutorScheduler scheduler = new ExecutorScheduler("test-writer", Ticker.system());
    private ObservationUpdater updater;
    private ObservationWatchers watchers;
    private Server server;
    private ManagedChannel channel;

    private void start(int outbounds) throws IOException {
        List<Outbound> configured = IntStream.range(0, outbounds)
                .mapToObj(i -> Outbound.direct(tag(i)))
                .toList();
        updater = new ObservationUpdater(
                Configs.direct(configured.stream().map(Outbound::tag).toList()), scheduler, Clock.systemUTC());
        watchers = new ObservationWatchers(updater.store());
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new ObservatoryServiceGrpc.ObservatoryServiceImplBase() {
                    @Override
                    public void watchObservation(
                            WatchObservationRequest request, StreamObserver<WatchObservationResponse> responses) {
                        watchers.watch(request.getTagPrefixesList(), responses);
                    }
                })
                .build()
                .start();
        // A small window makes a client that stops requesting push back on the server quickly.
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .usePlaintext()
                .flowControlWindow(16 * 1024)
                .build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        watchers.destroy();
        scheduler.close();
    }

    private static String tag(int i) {
        return String.format("proxy_%04d", i);
    }

    /** Hands statuses to the updater on the writer, as the observer does. */
    private void observe(List<OutboundStatus> statuses) {
        scheduler.execute(() -> ObserverOutput.publish(updater, statuses));
    }

    private void publishAll(int outbounds, HealthState state) {
        observe(IntStream.range(0, outbounds)
                .mapToObj(i -> status(tag(i), state))
                .toList());
    }

    private static OutboundStatus status(String tag, HealthState state) {
        boolean alive = state == HealthState.HEALTHY;
        return new OutboundStatus(
                tag,
                alive,
                alive ? 5 : OutboundStatus.DEAD_DELAY_MILLIS,
                alive ? "" : "refused",
                null,
                null,
                null,
                null,
                new ActiveHealth(state, alive ? 1 : 0, alive ? 0 : 1),
                alive ? "probe succeeded" : "probe failed: refused");
    }

    /** Receives a stream, requesting {@code initial} messages and more only when the test asks. */
    private static final class Client extends RecordingObserver<WatchObservationResponse>
            implements ClientResponseObserver<WatchObservationRequest, WatchObservationResponse> {
        final int initial;
        volatile ClientCallStreamObserver<WatchObservationRequest> call;

        Client(int initial) {
            this.initial = initial;
        }

        @Override
        public void beforeStart(ClientCallStreamObserver<WatchObservationRequest> requestStream) {
            call = requestStream;
            requestStream.disableAutoRequestWithInitial(initial);
        }
    }

    private Client watch(int initial, String... prefixes) {
        Client client = new Client(initial);
        ObservatoryServiceGrpc.newStub(channel)
                .watchObservation(
                        WatchObservationRequest.newBuilder()
                                .addAllTagPrefixes(List.of(prefixes))
                                .build(),
                        client);
        return client;
    }

    @Test
    void watchWhenOpenedThenSnapshotFirstAndThenOneEventPerTransitionWithReason() throws IOException {
        start(3);
        Client client = watch(Integer.MAX_VALUE);
        await().until(() -> client.values().size() == 1);

        observe(List.of(status(tag(1), HealthState.HEALTHY)));
        await().until(() -> client.values().size() == 2);
        observe(List.of(status(tag(1), HealthState.HEALTHY), status(tag(2), HealthState.UNKNOWN)));
        observe(List.of(status(tag(1), HealthState.UNHEALTHY), status(tag(2), HealthState.UNKNOWN)));
        await().until(() -> client.values().size() == 3);

        WatchObservationResponse first = client.values().get(0);
        assertThat(first.getSnapshot().getResync()).isFalse();
        assertThat(first.getSnapshot().getOutboundsList())
                .extracting(o -> o.getTag())
                .containsExactly(tag(0), tag(1), tag(2));
        assertThat(first.getSnapshot().getOutbounds(0).getVerdict())
                .isEqualTo(io.observatory.api.v1.HealthState.HEALTH_STATE_UNKNOWN);
        assertThat(client.values().get(1).getChanged().getOutbound().getVerdict())
                .isEqualTo(io.observatory.api.v1.HealthState.HEALTH_STATE_HEALTHY);
        assertThat(client.values().get(1).getChanged().getReason())
                .isEqualTo("active unknown -> healthy: probe succeeded");
        assertThat(client.values().get(2).getChanged().getPreviousVerdict())
                .isEqualTo(io.observatory.api.v1.HealthState.HEALTH_STATE_HEALTHY);
        assertThat(client.values().get(2).getChanged().getReason())
                .isEqualTo("active healthy -> unhealthy: probe failed: refused");
    }

    @Test
    void watchWhenPrefixesGivenThenOnlyMatchingOutboundsInSnapshotAndEvents() throws IOException {
        start(12);
        Client client = watch(Integer.MAX_VALUE, "proxy_001");
        await().until(() -> client.values().size() == 1);

        publishAll(12, HealthState.HEALTHY);
        await().until(() -> client.values().size() == 3);

        assertThat(client.values().get(0).getSnapshot().getOutboundsList())
                .extracting(o -> o.getTag())
                .containsExactly(tag(10), tag(11));
        assertThat(client.values().subList(1, 3))
                .extracting(r -> r.getChanged().getOutbound().getTag())
                .containsExactly(tag(10), tag(11));
    }

    @Test
    void watchWhenConsumerTooSlowThenQueuedEventsReplacedByResyncSnapshotOfTheLatestBoard() throws IOException {
        int outbounds = 800;
        start(outbounds);
        Client client = watch(1);
        await().until(() -> client.values().size() == 1);

        publishAll(outbounds, HealthState.HEALTHY);
        await().until(() -> updater.store().current().get(tag(0)).orElseThrow().verdict() == HealthState.HEALTHY);
        publishAll(outbounds, HealthState.UNHEALTHY);
        await().until(() -> updater.store().current().get(tag(0)).orElseThrow().verdict() == HealthState.UNHEALTHY);
        client.call.request(Integer.MAX_VALUE);

        await().until(() ->
                client.values().stream().anyMatch(r -> r.getSnapshot().getResync()));
        WatchObservationResponse resync = client.values().stream()
                .filter(r -> r.getSnapshot().getResync())
                .findFirst()
                .orElseThrow();
        assertThat(resync.getSnapshot().getOutboundsCount()).isEqualTo(outbounds);
        assertThat(resync.getSnapshot().getOutboundsList())
                .allMatch(o -> o.getVerdict() == io.observatory.api.v1.HealthState.HEALTH_STATE_UNHEALTHY);
        assertThat(client.values().size())
                .as("far fewer messages than the 1,600 events")
                .isLessThan(1_000);
    }

    @Test
    void closeWhenContextClosesThenEveryStreamGetsServingEndedAndCompletes() throws IOException {
        start(1);
        Client first = watch(Integer.MAX_VALUE);
        Client second = watch(Integer.MAX_VALUE, "none");
        await().until(() -> first.values().size() == 1 && second.values().size() == 1);

        watchers.onApplicationEvent(new ContextClosedEvent(new GenericApplicationContext()));

        await().until(() -> first.completed() && second.completed());
        assertThat(first.values().get(1).hasServingEnded()).isTrue();
        assertThat(second.values().get(1).getServingEnded().getReason()).isEqualTo("observatory is shutting down");
        assertThat(watchers.openStreams()).isZero();
    }

    @Test
    void cancelWhenClientCancelsThenStreamForgotten() throws IOException {
        start(1);
        Client client = watch(Integer.MAX_VALUE);
        await().until(() -> watchers.openStreams() == 1 && client.values().size() == 1);

        client.call.cancel("done", null);

        await().until(() -> watchers.openStreams() == 0);
    }
}
