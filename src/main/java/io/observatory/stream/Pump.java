package io.observatory.stream;

import io.grpc.Status;
import io.observatory.time.Ticker;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stream to one client: sends what its {@link Backlog} holds while its {@link Outlet} takes it. The producer only
 * adds to the backlog and calls {@link #offered()}; the messages are built and sent by whichever thread wins the
 * sending flag — a task on the delivery executor, the transport's on-ready callback, or the thread ending the stream —
 * so the outlet is called by one thread at a time and no producer ever waits for a client.
 *
 * <p>What a message weighs ({@link Limits#size}) is held in the {@link Budget} from its send until the outlet is ready
 * again (gRPC's flow control then says it left). The first message that does not fit ends the stream with the
 * budget's refusal (the client comes back later and starts afresh); a later one ends it too when
 * {@link Limits#laterRefusalEnds} (a backlog of whole states, where waiting would leave the client on a stale one),
 * else it waits until the budget gives bytes back ({@link Budget#whenReleased}) or the next offer. A message that
 * cannot be built or sent ends the stream with {@code INTERNAL}; the service keeps serving. Costs one backlog and a few
 * counters per stream.
 *
 * @param <M> the message type
 */
public final class Pump<M> {

    private static final Logger log = LoggerFactory.getLogger(Pump.class);
    private static final long NOT_STALLED = Long.MIN_VALUE;

    /**
     * How a stream weighs its messages and what it says when it ends on its own.
     *
     * @param budget           bounds the bytes its client has not taken yet, shared with the server's other answers
     * @param size             a message's weight in bytes, e.g. its serialized size
     * @param laterRefusalEnds whether a message after the first that does not fit ends the stream (else it waits)
     * @param unit             what a message is, for the refusal, e.g. {@code view}: {@code this stream's next view of
     *                         380211 bytes}
     * @param failure          the description of the {@code INTERNAL} status a failure ends the stream with
     * @param <M>              the message type
     */
    public record Limits<M>(
            Budget budget, ToLongFunction<M> size, boolean laterRefusalEnds, String unit, String failure) {

        /** No budget: the transport bounds the stream itself (the status page's, by its stall limit). */
        public static <M> Limits<M> unbounded(String failure) {
            return new Limits<>(Budget.UNBOUNDED, message -> 0, false, "message", failure);
        }
    }

    private final Outlet<M> outlet;
    private final Backlog<M> backlog;
    private final Executor delivery;
    private final Limits<M> limits;
    private final Ticker ticker;
    private final Consumer<Pump<M>> onEnded;
    // Held by the one thread calling the outlet at a time.
    private final AtomicBoolean sending = new AtomicBoolean();
    // Set when a delivery task is queued, so a burst of offers queues one task.
    private final AtomicBoolean deliveryQueued = new AtomicBoolean();
    // Bytes sent that the client may not have taken yet, held in the budget; any thread releases them.
    private final AtomicLong held = new AtomicLong();
    private volatile boolean ending;
    private volatile @Nullable M last;
    private volatile boolean closed;
    // Set when the budget held back a later message, until the budget gives bytes back, the next offer or on-ready.
    private volatile boolean starved;
    // Set while a wake-up is registered with the budget, so a stream registers at most one.
    private final AtomicBoolean awaitingRelease = new AtomicBoolean();
    // When the outlet stopped taking what was due, on the ticker; NOT_STALLED while it takes it or nothing is due.
    private volatile long stalledSince = NOT_STALLED;
    // Sending thread only.
    private boolean firstSent;

    /**
     * @param outlet   where the messages go
     * @param backlog  what is due
     * @param delivery where messages are built and sent after an offer, off the producer's thread
     * @param limits   the budget and what the stream says when it ends on its own
     * @param ticker   times how long the outlet has not taken what was due
     * @param onEnded  hears the stream once when it ends on its own (refused, failed), so the producer stops feeding it
     */
    public Pump(
            Outlet<M> outlet,
            Backlog<M> backlog,
            Executor delivery,
            Limits<M> limits,
            Ticker ticker,
            Consumer<Pump<M>> onEnded) {
        this.outlet = outlet;
        this.backlog = backlog;
        this.delivery = delivery;
        this.limits = limits;
        this.ticker = ticker;
        this.onEnded = onEnded;
    }

    /** The backlog has something new: it goes out on the delivery executor. Any thread. */
    public void offered() {
        starved = false;
        if (deliveryQueued.compareAndSet(false, true)) {
            try {
                delivery.execute(() -> {
                    deliveryQueued.set(false);
                    pump();
                });
            } catch (RejectedExecutionException e) {
                // The delivery executor has stopped (the service is closing): nothing more goes out.
                deliveryQueued.set(false);
                closed = true;
                backlog.clear();
                releaseHeld();
            }
        }
    }

    /** The outlet takes messages again (gRPC's on-ready callback): what is due goes out on this thread. */
    public void ready() {
        starved = false;
        pump();
    }

    /** The budget gave bytes back after it held back this stream's message: it tries again. */
    private void released() {
        awaitingRelease.set(false);
        offered();
    }

    /** The client left: the backlog is dropped and what the stream held of the budget given back. Any thread. */
    public void cancelled() {
        closed = true;
        backlog.clear();
        releaseHeld();
    }

    /**
     * Ends the stream: drops the backlog, sends {@code finalMessage} if any, and completes it. Idempotent; any thread.
     */
    public void end(@Nullable M finalMessage) {
        last = finalMessage;
        ending = true;
        backlog.clear();
        pump();
    }

    /** Whether the outlet has taken nothing for at least {@code limit} while something was due. */
    public boolean stalledFor(Duration limit) {
        long since = stalledSince;
        return since != NOT_STALLED && ticker.nanoTime() - since >= limit.toNanos();
    }

    /** Whether the stream has ended (completed, refused, failed or cancelled). */
    public boolean ended() {
        return closed;
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
        while (!closed) {
            if (ending) {
                finish();
                return;
            }
            if (!outlet.ready()) {
                if (backlog.isEmpty()) {
                    stalledSince = NOT_STALLED;
                } else if (stalledSince == NOT_STALLED) {
                    stalledSince = ticker.nanoTime();
                }
                return;
            }
            // What this stream sent before has left its buffer (but for the transport's small threshold), whether
            // or not something is due now: a stream whose source stays quiet must not hold its last message for good.
            releaseHeld();
            stalledSince = NOT_STALLED;
            if (starved) {
                return;
            }
            if (!firstSent && limits.budget().exhausted()) {
                refuse("this stream's first " + limits.unit()); // not even built: a refused message costs no CPU
                return;
            }
            M message = backlog.take();
            if (message == null) {
                return;
            }
            long size = limits.size().applyAsLong(message);
            if (!limits.budget().tryHold(size)) {
                if (!firstSent || limits.laterRefusalEnds()) {
                    refuse("this stream's " + (firstSent ? "next " : "first ") + limits.unit() + " of " + size
                            + " bytes");
                } else {
                    backlog.putBack(message);
                    starved = true;
                    if (awaitingRelease.compareAndSet(false, true)) {
                        limits.budget().whenReleased(this::released);
                    }
                }
                return;
            }
            held.addAndGet(size);
            if (outlet.cancelled()) {
                // The client left while this was built: cancelled() may have run before the bytes were held.
                releaseHeld();
                closed = true;
                return;
            }
            firstSent = true;
            outlet.send(message);
        }
    }

    private void finish() {
        closed = true;
        if (!outlet.cancelled()) {
            M finalMessage = last;
            if (finalMessage != null) {
                outlet.send(finalMessage);
            }
            outlet.complete();
        }
        releaseHeld();
    }

    /** Ends a stream whose message the budget refused; its client may watch again after a moment. */
    private void refuse(String what) {
        closed = true;
        backlog.clear();
        log.debug("stream refused: {} exceeds the budget of unread answers", what);
        if (!outlet.cancelled()) {
            outlet.fail(limits.budget().refusal(what));
        }
        onEnded.accept(this);
    }

    /** Ends the stream with INTERNAL after a message could not be built or sent. */
    private void fail(RuntimeException e) {
        log.error("stream failed and was closed with INTERNAL ({})", limits.failure(), e);
        closed = true;
        backlog.clear();
        releaseHeld();
        if (!outlet.cancelled()) {
            outlet.fail(Status.INTERNAL.withDescription(limits.failure()));
        }
        onEnded.accept(this);
    }

    private void releaseHeld() {
        limits.budget().release(held.getAndSet(0));
    }

    private boolean hasWork() {
        return !closed && (ending || (!starved && !backlog.isEmpty() && outlet.ready()));
    }

    @Override
    public String toString() {
        return "Pump[" + Objects.toString(outlet) + ", closed=" + closed + "]";
    }
}
