package io.observatory.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.config.SubjectSelector;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import io.observatory.stream.Events;
import io.observatory.stream.GrpcOutlet;
import io.observatory.stream.Pump;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One {@code WatchObservation} stream: the observation's events of the outbounds it selects, queued as the writer
 * publishes them ({@link Events}: a slow client that lets more than the capacity pile up gets one full snapshot of the
 * observation that overflowed it, {@code resync = true}, so its view is repaired rather than silently missing a
 * transition) and sent while gRPC's flow control takes them, by the stream's {@link Pump}. The writer only queues.
 */
final class WatchStream {

    private final List<String> tagPrefixes;
    private final int capacity;
    private final SubjectSelector selector;
    private final Events<WatchObservationResponse> backlog;
    private final Pump<WatchObservationResponse> pump;

    /**
     * @param delivery where queued messages are built and sent, off the writer thread
     */
    WatchStream(
            ServerCallStreamObserver<WatchObservationResponse> call,
            List<String> tagPrefixes,
            int capacity,
            Executor delivery) {
        this(call, tagPrefixes, capacity, delivery, new UnreadAnswers(Long.MAX_VALUE), stream -> {});
    }

    /**
     * @param budget   bounds the bytes sent to clients that have not taken them yet, across streams and unary calls:
     *                 a first message (the snapshot) beyond it ends the stream with {@code RESOURCE_EXHAUSTED}, a
     *                 later one waits for the next publication or on-ready callback
     * @param onClosed hears this stream once when it ends by itself (refused, failed): the caller stops feeding it
     */
    WatchStream(
            ServerCallStreamObserver<WatchObservationResponse> call,
            List<String> tagPrefixes,
            int capacity,
            Executor delivery,
            UnreadAnswers budget,
            Consumer<WatchStream> onClosed) {
        this.tagPrefixes = List.copyOf(tagPrefixes);
        this.capacity = capacity;
        this.selector = new SubjectSelector(tagPrefixes);
        this.backlog = new Events<>(capacity);
        this.pump = new Pump<>(
                new GrpcOutlet<>(call),
                backlog,
                delivery,
                new Pump.Limits<>(
                        budget,
                        WatchObservationResponse::getSerializedSize,
                        false,
                        "message",
                        "the observation could not be sent"),
                System::nanoTime,
                ended -> onClosed.accept(this));
    }

    /** Queues the first message, the full observation. Writer thread. */
    void start(Observation observation) {
        backlog.offer(() -> ObservationProtos.snapshot(observation, tagPrefixes, false));
        pump.offered();
    }

    /**
     * Queues the update's transitions of this stream's outbounds, or a resync snapshot on overflow. Writer thread;
     * costs at most {@code capacity + 1} queued suppliers however many outbounds changed (more overflow anyway).
     */
    void offer(ObservationUpdate update) {
        if (pump.ended()) {
            return;
        }
        List<Supplier<WatchObservationResponse>> events = update.transitions().stream()
                .filter(this::selected)
                .limit(capacity + 1L)
                .<Supplier<WatchObservationResponse>>map(event -> () -> ObservationProtos.event(event))
                .toList();
        if (events.isEmpty()) {
            return;
        }
        Observation observation = update.observation();
        backlog.offer(events, () -> ObservationProtos.snapshot(observation, tagPrefixes, true));
        pump.offered();
    }

    /** Whether the stream has ended (completed, refused, failed or cancelled). */
    boolean ended() {
        return pump.ended();
    }

    /** Sends what is queued while the call is ready; gRPC's on-ready callback. */
    void onReady() {
        pump.ready();
    }

    /** The client cancelled: what this stream held of the budget is given back. Any thread. */
    void cancelled() {
        pump.cancelled();
    }

    /** Drops what is queued, sends the final {@code ServingEnded} event and completes the call. Idempotent. */
    void end() {
        pump.end(ObservationProtos.servingEnded("observatory is shutting down"));
    }

    private boolean selected(OutboundEvent event) {
        return selector.isEmpty() || selector.selects(event.tag());
    }
}
