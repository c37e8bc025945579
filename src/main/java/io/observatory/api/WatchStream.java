package io.observatory.api;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.config.SubjectSelector;
import io.observatory.status.Observation;
import io.observatory.status.ObservationUpdate;
import io.observatory.status.OutboundEvent;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code WatchObservation} stream: a bounded queue between the verdict writer thread, which must never wait for
 * a client, and the client's flow control. Events are queued as they are published and sent while the call is ready
 * (gRPC's outbound flow control). When a slow client lets more than the buffer's capacity pile up, the queue is
 * replaced by one full snapshot of the observation that overflowed it ({@code resync = true}), so the client's view is
 * repaired rather than silently missing a transition; later events queue after that snapshot.
 *
 * <p>The writer only queues, under a lock held for queue operations alone. Messages are built and sent by whichever
 * thread wins the {@code sending} flag — a delivery-executor task, gRPC's on-ready callback or the thread ending the
 * stream — so calls on the gRPC observer are serialised without holding the queue lock.
 */
final class WatchStream {

    private static final Logger log = LoggerFactory.getLogger(WatchStream.class);

    private final ServerCallStreamObserver<WatchObservationResponse> call;
    private final List<String> tagPrefixes;
    private final SubjectSelector selector;
    private final int capacity;
    private final Executor delivery;
    // Guards queue, ending and closed: the writer thread offers, senders poll, the closing thread ends.
    private final Object lock = new Object();
    private final ArrayDeque<Supplier<WatchObservationResponse>> queue = new ArrayDeque<>();
    private boolean ending;
    private boolean closed;
    // Held by the one thread calling the gRPC observer at a time.
    private final AtomicBoolean sending = new AtomicBoolean();
    // Set when a delivery task is queued, so a burst of offers queues one task.
    private final AtomicBoolean deliveryQueued = new AtomicBoolean();

    /**
     * @param delivery where queued messages are built and sent, off the writer thread
     */
    WatchStream(ServerCallStreamObserver<WatchObservationResponse> call, List<String> tagPrefixes, int capacity,
            Executor delivery) {
        this.call = call;
        this.tagPrefixes = List.copyOf(tagPrefixes);
        this.selector = new SubjectSelector(tagPrefixes);
        this.capacity = capacity;
        this.delivery = delivery;
    }

    /** Queues the first message, the full observation. Writer thread. */
    void start(Observation observation) {
        synchronized (lock) {
            queue.add(() -> ObservationProtos.snapshot(observation, tagPrefixes, false));
        }
        queueDelivery();
    }

    /** Queues the update's transitions of this stream's outbounds, or a resync snapshot on overflow. Writer thread. */
    void offer(ObservationUpdate update) {
        List<OutboundEvent> events = update.transitions().stream().filter(this::selected).toList();
        if (events.isEmpty()) {
            return;
        }
        synchronized (lock) {
            if (ending || closed) {
                return;
            }
            if (queue.size() + events.size() > capacity) {
                queue.clear();
                Observation observation = update.observation();
                queue.add(() -> ObservationProtos.snapshot(observation, tagPrefixes, true));
            } else {
                events.forEach(event -> queue.add(() -> ObservationProtos.event(event)));
            }
        }
        queueDelivery();
    }

    /** Sends what is queued while the call is ready; gRPC's on-ready callback. */
    void onReady() {
        pump();
    }

    /** Drops what is queued, sends the final {@code ServingEnded} event and completes the call. Idempotent. */
    void end() {
        synchronized (lock) {
            ending = true;
            queue.clear();
        }
        pump();
    }

    private void queueDelivery() {
        if (deliveryQueued.compareAndSet(false, true)) {
            delivery.execute(() -> {
                deliveryQueued.set(false);
                pump();
            });
        }
    }

    /** Sends until nothing can be sent; a thread finding another one sending leaves the work to it. */
    private void pump() {
        do {
            if (!sending.compareAndSet(false, true)) {
                return;
            }
            try {
                send();
            } catch (RuntimeException e) {
                fail(e);
            } finally {
                sending.set(false);
            }
        } while (hasWork());
    }

    private void send() {
        while (true) {
            Supplier<WatchObservationResponse> next;
            boolean finish;
            synchronized (lock) {
                if (closed) {
                    return;
                }
                finish = ending;
                closed = finish;
                next = finish || !call.isReady() ? null : queue.poll();
            }
            if (finish) {
                if (!call.isCancelled()) {
                    call.onNext(ObservationProtos.servingEnded("observatory is shutting down"));
                    call.onCompleted();
                }
                return;
            }
            if (next == null) {
                return;
            }
            call.onNext(next.get());
        }
    }

    private boolean hasWork() {
        synchronized (lock) {
            return !closed && (ending || (!queue.isEmpty() && call.isReady()));
        }
    }

    /** Ends the stream with INTERNAL after a message could not be built or sent; the service keeps serving. */
    private void fail(RuntimeException e) {
        log.error("watch stream failed and was closed with INTERNAL", e);
        synchronized (lock) {
            closed = true;
            queue.clear();
        }
        if (!call.isCancelled()) {
            call.onError(Status.INTERNAL.withDescription("the observation could not be sent").asRuntimeException());
        }
    }

    private boolean selected(OutboundEvent event) {
        return selector.isEmpty() || selector.selects(event.tag());
    }
}
