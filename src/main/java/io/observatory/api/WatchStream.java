package io.observatory.api;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.config.SubjectSelector;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.ObservationUpdate;
import io.observatory.snapshot.OutboundEvent;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
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
    private final UnreadAnswers budget;
    private final Consumer<WatchStream> onClosed;
    // Bytes this stream sent that its client may not have taken yet, held in the budget; any thread releases.
    private final AtomicLong held = new AtomicLong();
    // Sending thread only: whether the first message went out; set when the budget refused a later message, until
    // the next publication or on-ready callback (so the sender does not spin while the budget is exhausted).
    private boolean firstSent;
    private volatile boolean starved;

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
        this.budget = budget;
        this.onClosed = onClosed;
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
        List<OutboundEvent> events =
                update.transitions().stream().filter(this::selected).toList();
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
        starved = false;
        queueDelivery();
    }

    /** Sends what is queued while the call is ready; gRPC's on-ready callback. */
    void onReady() {
        starved = false;
        pump();
    }

    /** The client cancelled: what this stream held of the budget is given back. Any thread. */
    void cancelled() {
        budget.release(held.getAndSet(0));
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
            boolean ready;
            synchronized (lock) {
                if (closed) {
                    return;
                }
                finish = ending;
                closed = finish;
                ready = call.isReady();
                next = finish || !ready ? null : queue.poll();
            }
            if (finish) {
                if (!call.isCancelled()) {
                    call.onNext(ObservationProtos.servingEnded("observatory is shutting down"));
                    call.onCompleted();
                }
                budget.release(held.getAndSet(0));
                return;
            }
            if (ready) {
                // What this stream sent before has left its buffer (but for gRPC's small threshold), whether or not
                // something is queued now: a stream whose outbounds stay quiet must not hold its snapshot for good.
                budget.release(held.getAndSet(0));
            }
            if (next == null) {
                return;
            }
            if (!firstSent && budget.exhausted()) {
                refuse("this stream's first message"); // not even built: a refused snapshot costs no CPU
                return;
            }
            WatchObservationResponse message = next.get();
            long size = message.getSerializedSize();
            if (!budget.tryHold(size)) {
                if (!firstSent) {
                    refuse("this stream's first message of " + size + " bytes");
                    return;
                }
                synchronized (lock) {
                    queue.addFirst(() -> message);
                }
                starved = true;
                return;
            }
            held.addAndGet(size);
            if (call.isCancelled()) {
                // The client left while this was built: cancelled() may have run before the bytes were held.
                budget.release(held.getAndSet(0));
                return;
            }
            firstSent = true;
            call.onNext(message);
        }
    }

    /** Ends a stream whose first message the budget refused; the client may watch again after a moment. */
    private void refuse(String what) {
        synchronized (lock) {
            closed = true;
            queue.clear();
        }
        log.debug("watch stream refused: {} exceeds the budget of unread answers", what);
        if (!call.isCancelled()) {
            call.onError(budget.refusal(what).asRuntimeException());
        }
        onClosed.accept(this);
    }

    private boolean hasWork() {
        synchronized (lock) {
            return !closed && (ending || (!starved && !queue.isEmpty() && call.isReady()));
        }
    }

    /** Ends the stream with INTERNAL after a message could not be built or sent; the service keeps serving. */
    private void fail(RuntimeException e) {
        log.error("watch stream failed and was closed with INTERNAL", e);
        synchronized (lock) {
            closed = true;
            queue.clear();
        }
        budget.release(held.getAndSet(0));
        if (!call.isCancelled()) {
            call.onError(Status.INTERNAL
                    .withDescription("the observation could not be sent")
                    .asRuntimeException());
        }
        onClosed.accept(this);
    }

    private boolean selected(OutboundEvent event) {
        return selector.isEmpty() || selector.selects(event.tag());
    }
}
