package io.observatory.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.v1.OutboundChanged;
import io.observatory.api.v1.OutboundRemoved;
import io.observatory.api.v1.ServingEnded;
import io.observatory.api.v1.Snapshot;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.health.HealthState;
import io.observatory.verdict.BoardUpdate;
import io.observatory.verdict.HealthBoard;
import io.observatory.verdict.OutboundHealth;
import io.observatory.verdict.VerdictEvent;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One {@code WatchObservation} stream: a bounded queue between the verdict writer thread, which must never wait for
 * a client, and the client's flow control. Events are queued as they are published and sent while the call is ready
 * (gRPC's outbound flow control). When a slow client lets more than the buffer's capacity pile up, the queue is
 * replaced by one full snapshot of the board that overflowed it ({@code resync = true}), so the client's view is
 * repaired rather than silently missing a transition; later events queue after that snapshot. Messages are built and
 * sent on the delivery executor (or gRPC's on-ready thread), never on the writer thread, so many streams cost the
 * writer only their queueing.
 */
final class WatchStream {

    private final ServerCallStreamObserver<WatchObservationResponse> call;
    private final List<String> tagPrefixes;
    private final int capacity;
    private final Executor delivery;
    // Guarded by this: offered on the writer thread, drained on the delivery executor or gRPC's onReady thread.
    private final ArrayDeque<Supplier<WatchObservationResponse>> queue = new ArrayDeque<>();
    private boolean ended;
    // Set when a drain is queued on the delivery executor, so bursts of offers queue one drain.
    private final AtomicBoolean drainQueued = new AtomicBoolean();

    /**
     * @param delivery where queued messages are built and sent; its tasks for one stream may run concurrently with
     *     gRPC's on-ready callbacks, which this class serialises
     */
    WatchStream(ServerCallStreamObserver<WatchObservationResponse> call, List<String> tagPrefixes, int capacity,
            Executor delivery) {
        this.call = call;
        this.tagPrefixes = List.copyOf(tagPrefixes);
        this.capacity = capacity;
        this.delivery = delivery;
    }

    /** Queues the first message, the full observation. Writer thread. */
    synchronized void start(HealthBoard board) {
        queue.add(() -> snapshot(board, false));
        queueDrain();
    }

    /** Queues the update's events for this stream's outbounds, or a resync snapshot on overflow. Writer thread. */
    synchronized void offer(BoardUpdate update) {
        if (ended) {
            return;
        }
        List<VerdictEvent> events = update.events().stream().filter(this::selected).toList();
        if (events.isEmpty()) {
            return;
        }
        if (queue.size() + events.size() > capacity) {
            queue.clear();
            HealthBoard board = update.board();
            queue.add(() -> snapshot(board, true));
        } else {
            events.forEach(event -> queue.add(() -> message(event)));
        }
        queueDrain();
    }

    private void queueDrain() {
        if (drainQueued.compareAndSet(false, true)) {
            delivery.execute(() -> {
                drainQueued.set(false);
                drain();
            });
        }
    }

    /** Builds and sends queued messages while the call is ready. */
    synchronized void drain() {
        while (!ended && !queue.isEmpty() && call.isReady()) {
            call.onNext(queue.poll().get());
        }
    }

    /** Sends the final {@code ServingEnded} event, dropping what is still queued, and completes the call. */
    synchronized void end() {
        if (ended) {
            return;
        }
        ended = true;
        queue.clear();
        if (!call.isCancelled()) {
            call.onNext(WatchObservationResponse.newBuilder()
                    .setServingEnded(ServingEnded.newBuilder().setReason("observatory is shutting down"))
                    .build());
            call.onCompleted();
        }
    }

    private boolean selected(VerdictEvent event) {
        return tagPrefixes.isEmpty() || tagPrefixes.stream().anyMatch(event.tag()::startsWith);
    }

    private WatchObservationResponse snapshot(HealthBoard board, boolean resync) {
        Snapshot.Builder snapshot = Snapshot.newBuilder().setResync(resync);
        board.matching(tagPrefixes).forEach(outbound -> snapshot.addOutbounds(ObservationProtos.outbound(outbound)));
        return WatchObservationResponse.newBuilder().setSnapshot(snapshot).build();
    }

    private static WatchObservationResponse message(VerdictEvent event) {
        if (event instanceof VerdictEvent.Removed removed) {
            return WatchObservationResponse.newBuilder().setRemoved(OutboundRemoved.newBuilder()
                    .setTag(removed.tag())
                    .setTime(ObservationProtos.timestamp(removed.time()))).build();
        }
        VerdictEvent.Changed changed = (VerdictEvent.Changed) event;
        OutboundHealth now = changed.now();
        return WatchObservationResponse.newBuilder().setChanged(OutboundChanged.newBuilder()
                .setOutbound(ObservationProtos.outbound(now))
                .setPreviousVerdict(previous(changed.previousVerdict()))
                .setPreviousActiveState(previous(changed.previousActive()))
                .setPreviousPassiveState(previous(changed.previousPassive()))
                .setReason(now.lastChangeReason())
                .setTime(ObservationProtos.timestamp(now.lastChange()))).build();
    }

    private static io.observatory.api.v1.HealthState previous(HealthState state) {
        return state == null ? io.observatory.api.v1.HealthState.HEALTH_STATE_UNSPECIFIED
                : ObservationProtos.state(state);
    }
}
