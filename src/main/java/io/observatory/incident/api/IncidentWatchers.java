package io.observatory.incident.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.v1.OpenIncidents;
import io.observatory.api.v1.WatchIncidentsResponse;
import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.store.IncidentStore;
import io.observatory.stream.Budget;
import io.observatory.stream.Events;
import io.observatory.stream.GrpcWatch;
import io.observatory.stream.Pump;
import io.observatory.stream.StreamRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The open {@code WatchIncidents} streams. Each hears the store's batches on the store thread and sends them through
 * its {@link Pump} with a bounded event queue ({@link Events}, {@value #CAPACITY} events): a client that lets more
 * pile up gets the open incidents instead ({@code resync}), never a silent gap. Messages are built and sent on one
 * {@code incident-watch} thread or gRPC's on-ready callback, never on the store thread. What a stream sent counts
 * against the server's bound of unread answers until its transport is ready again. Costs one queue of at most
 * {@value #CAPACITY} events per stream.
 */
final class IncidentWatchers implements ApplicationListener<ContextClosedEvent>, DisposableBean {

    /** The events one stream may have queued before they collapse into the list of open incidents. */
    static final int CAPACITY = 1024;

    private final IncidentStore store;
    private final Budget budget;
    private final StreamRegistry<Stream> streams = new StreamRegistry<>("incident-watch", 1);

    /** @param budget bounds the bytes sent to clients that have not taken them yet, shared with the other answers */
    IncidentWatchers(IncidentStore store, Budget budget) {
        this.store = store;
        this.budget = budget;
    }

    /** Opens a stream: the open incidents whose subject starts with {@code prefix}, then their events. */
    void watch(ServerCallStreamObserver<WatchIncidentsResponse> call, String prefix) {
        Stream stream = new Stream(call, prefix);
        if (!streams.add(stream)) {
            stream.watch.end(null);
            return;
        }
        stream.watch.subscribe(store.watch(stream::start, stream::recorded));
    }

    /** Completes every stream as the context closes, before the gRPC server stops. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        streams.endAll(stream -> stream.watch.end(null));
    }

    /** Lets the streams' last messages go out (briefly), then stops the delivery thread. */
    @Override
    public void destroy() throws InterruptedException {
        streams.stop(Duration.ofSeconds(1));
    }

    /** One stream. */
    private final class Stream {

        private final String prefix;
        private final Events<WatchIncidentsResponse> backlog = new Events<>(CAPACITY);
        private final GrpcWatch<WatchIncidentsResponse> watch;

        Stream(ServerCallStreamObserver<WatchIncidentsResponse> call, String prefix) {
            this.prefix = prefix;
            this.watch = new GrpcWatch<>(
                    call,
                    backlog,
                    streams.delivery(),
                    new Pump.Limits<>(
                            budget,
                            WatchIncidentsResponse::getSerializedSize,
                            false,
                            "incident event",
                            "the incident event could not be sent"),
                    () -> streams.remove(this));
        }

        /** On the store thread: the open incidents now. */
        void start(List<Incident> open) {
            backlog.offer(openIncidents(open, false));
            watch.offered();
        }

        /** On the store thread: one recorded batch, or the open incidents after it when the queue would overflow. */
        void recorded(IncidentStore.Recorded batch) {
            List<Supplier<WatchIncidentsResponse>> events = new ArrayList<>();
            for (IncidentEvent event : batch.events()) {
                Incident incident = event.incident();
                if (incident.subject().startsWith(prefix)) {
                    events.add(() -> event.type() == IncidentEvent.Type.OPENED
                            ? WatchIncidentsResponse.newBuilder()
                                    .setOpened(IncidentProtos.incident(incident))
                                    .build()
                            : WatchIncidentsResponse.newBuilder()
                                    .setResolved(IncidentProtos.incident(incident))
                                    .build());
                }
            }
            if (!events.isEmpty()) {
                backlog.offer(events, openIncidents(batch.open(), true));
                watch.offered();
            }
        }

        private Supplier<WatchIncidentsResponse> openIncidents(List<Incident> open, boolean resync) {
            return () -> {
                OpenIncidents.Builder message = OpenIncidents.newBuilder().setResync(resync);
                open.stream()
                        .filter(incident -> incident.subject().startsWith(prefix))
                        .forEach(incident -> message.addIncidents(IncidentProtos.incident(incident)));
                return WatchIncidentsResponse.newBuilder()
                        .setOpenIncidents(message)
                        .build();
            };
        }
    }
}
