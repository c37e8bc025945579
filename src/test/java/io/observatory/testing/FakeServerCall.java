package io.observatory.testing;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The server side of one streaming call, as a watch stream sees it: readiness and cancellation set by the test,
 * every message and the ending recorded, and overlapping calls into it caught (gRPC's observer is not thread-safe,
 * so a stream must never call it from two threads at once). Thread-safe itself.
 */
public final class FakeServerCall<T> extends ServerCallStreamObserver<T> {

    private final List<T> messages = new CopyOnWriteArrayList<>();
    private final AtomicBoolean inCall = new AtomicBoolean();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicInteger completions = new AtomicInteger();
    private final AtomicInteger callsAfterEnd = new AtomicInteger();
    // volatile: flipped by the test's threads, read by the stream's.
    private volatile boolean ready = true;
    // volatile: set by the test, read by the stream's threads.
    private volatile boolean cancelled;
    // volatile: written by the stream's sending thread, read by the test.
    private volatile @Nullable Status error;
    // volatile: set by the test, read by the sending thread.
    private volatile @Nullable RuntimeException failNext;
    // volatile: set by the code under test, run by the test's thread.
    private volatile boolean notReadyAfterNext;
    private volatile Runnable onReady = () -> {};
    private volatile Runnable onCancel = () -> {};

    public void ready(boolean ready) {
        this.ready = ready;
    }

    /**
     * Makes the call not ready after each message, as a real call is after one larger than gRPC's on-ready threshold
     * (32 KB) until its transport drains it.
     */
    public void notReadyAfterEachMessage() {
        notReadyAfterNext = true;
    }

    /** The transport drained what was sent: ready again, and gRPC's on-ready callback runs, as on a real call. */
    public void drained() {
        ready = true;
        onReady.run();
    }

    /** The client cancels: cancelled, and the on-cancel callback runs, as on a real call. */
    public void cancelledByClient() {
        cancelled = true;
        onCancel.run();
    }

    public void cancel() {
        cancelled = true;
    }

    /** Makes the next {@link #onNext} throw {@code failure}, as a marshaller or transport might. */
    public void failNext(RuntimeException failure) {
        failNext = failure;
    }

    /** The messages sent, in order; a live view. */
    public List<T> messages() {
        return messages;
    }

    /** How many times two threads were inside the observer at once; 0 for a correct stream. */
    public int overlaps() {
        return overlaps.get();
    }

    /** How many times the call was completed normally. */
    public int completions() {
        return completions.get();
    }

    /** How many calls came after the call was completed or failed; 0 for a correct stream. */
    public int callsAfterEnd() {
        return callsAfterEnd.get();
    }

    /** The status the call failed with, or {@code null}. */
    @Nullable
    public Status error() {
        return error;
    }

    private boolean ended() {
        return completions.get() > 0 || error != null;
    }

    private void enter() {
        if (!inCall.compareAndSet(false, true)) {
            overlaps.incrementAndGet();
        }
        if (ended()) {
            callsAfterEnd.incrementAndGet();
        }
    }

    private void exit() {
        inCall.set(false);
    }

    @Override
    public void onNext(T value) {
        enter();
        try {
            RuntimeException failure = failNext;
            if (failure != null) {
                failNext = null;
                throw failure;
            }
            messages.add(value);
            if (notReadyAfterNext) {
                ready = false;
            }
        } finally {
            exit();
        }
    }

    @Override
    public void onError(Throwable t) {
        enter();
        error = Status.fromThrowable(t);
        exit();
    }

    @Override
    public void onCompleted() {
        enter();
        completions.incrementAndGet();
        exit();
    }

    @Override
    public boolean isReady() {
        return ready;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {
        this.onCancel = onCancelHandler;
    }

    @Override
    public void setCompression(String compression) {}

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {
        this.onReady = onReadyHandler;
    }

    @Override
    public void request(int count) {}

    @Override
    public void setMessageCompression(boolean enable) {}

    @Override
    public void disableAutoInboundFlowControl() {}
}
