package io.observatory.api;

import com.google.protobuf.MessageLite;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.observatory.stream.Budget;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.GlobalServerInterceptor;

/**
 * Bounds the bytes of unary answers that the server has sent but their clients have not taken yet. A unary answer is
 * handed to the transport whatever the client's flow control says, and waits in the server's direct memory until the
 * client reads it; a client that sends many calls and reads none (any client: Xray's {@code GetOutboundStatus} needs
 * no credentials) otherwise pinned the whole direct memory — measured at 10,000 outbounds on {@code -Xmx256m}, 2,000
 * unread {@code GetOutboundStatus} calls on one connection: the scrapes failed with {@code OutOfMemoryError: Cannot
 * reserve ... bytes of direct buffer memory} and 3,030 outbounds turned unhealthy, their probes starved. An answer that
 * would take the unread bytes of all calls past the budget is refused with {@code RESOURCE_EXHAUSTED}
 * instead (retry later); an answer is always sent when no other answer is unread, however large. A call's bytes count
 * from its answer until the call completes (its last byte written) or is cancelled.
 *
 * <p>Streaming calls are not counted here: {@code WatchObservation} and {@code WatchMesh} streams count their own
 * messages ({@link #tryHold}), since they send only while their client's flow control allows and know when the client
 * took them. Costs two atomic updates per unary call; runs on whichever thread answers.
 */
public final class UnreadAnswers implements ServerInterceptor, Budget {

    /** The least budget, whatever the heap. */
    static final long MIN_BUDGET_BYTES = 16L << 20;

    private final long budgetBytes;
    private final AtomicLong unread = new AtomicLong();
    // Streams held back by the budget, woken by the next release; at most one entry per stream (Pump registers once).
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

    /** @param budgetBytes the unread bytes of all calls beyond which an answer is refused, positive */
    public UnreadAnswers(long budgetBytes) {
        if (budgetBytes < 1) {
            throw new IllegalArgumentException("budgetBytes: " + budgetBytes + " (expected: > 0)");
        }
        this.budgetBytes = budgetBytes;
    }

    /** The budget for this JVM: an eighth of the heap limit (which is also Netty's direct memory limit), at least 16 MB. */
    static long defaultBudget() {
        return Math.max(MIN_BUDGET_BYTES, Runtime.getRuntime().maxMemory() / 8);
    }

    /**
     * Holds {@code bytes} of a message about to be sent on a stream that counts its own ({@code WatchObservation}):
     * false, holding nothing, when the unread bytes would then exceed the budget while others are unread.
     */
    @Override
    public boolean tryHold(long bytes) {
        long total = unread.addAndGet(bytes);
        if (total > budgetBytes && total != bytes) {
            unread.addAndGet(-bytes);
            return false;
        }
        return true;
    }

    /** Whether the unread bytes have reached the budget: a message of any size would be refused now. */
    @Override
    public boolean exhausted() {
        return unread.get() >= budgetBytes;
    }

    /**
     * The status that ends a stream whose message the budget refused: {@code what} (e.g. {@code this stream's first
     * view of 380104 bytes}) would exceed it; the client may watch again after a moment.
     */
    @Override
    public Status refusal(String what) {
        return Status.RESOURCE_EXHAUSTED.withDescription("the server holds answers its clients have not read yet, and "
                + what + " would exceed the budget of " + budgetBytes + " bytes (expected: a retry after a moment)");
    }

    /** Gives back {@code bytes} held by {@link #tryHold}: the client has taken them, or the stream ended. */
    @Override
    public void release(long bytes) {
        unread.addAndGet(-bytes);
        if (bytes > 0) {
            wakeWaiting();
        }
    }

    /**
     * Wakes {@code wake} after the next release, or at once when nothing is held (no release would come): a waiter
     * queued after a release's look at the queue sees that release's effect on the unread bytes.
     */
    @Override
    public void whenReleased(Runnable wake) {
        waiting.add(wake);
        if (unread.get() <= 0) {
            wakeWaiting();
        }
    }

    private void wakeWaiting() {
        for (Runnable wake = waiting.poll(); wake != null; wake = waiting.poll()) {
            wake.run();
        }
    }

    /** Bytes of answers sent and not yet taken by their clients. */
    public long unreadBytes() {
        return unread.get();
    }

    @Override
    public <RequestT, ResponseT> ServerCall.Listener<RequestT> interceptCall(
            ServerCall<RequestT, ResponseT> call, Metadata headers, ServerCallHandler<RequestT, ResponseT> next) {
        if (call.getMethodDescriptor().getType() != MethodDescriptor.MethodType.UNARY) {
            return next.startCall(call, headers);
        }
        Counted<RequestT, ResponseT> counted = new Counted<>(call);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(counted, headers)) {
            @Override
            public void onComplete() {
                counted.release();
                super.onComplete();
            }

            @Override
            public void onCancel() {
                counted.release();
                super.onCancel();
            }
        };
    }

    /** The size of an answer on the wire, as far as it is known before it is written. */
    private static long sizeOf(Object message) {
        if (message instanceof SerializedMessage serialized) {
            return serialized.size();
        }
        return message instanceof MessageLite lite ? lite.getSerializedSize() : 0;
    }

    /** One unary call: its answer's bytes while unread, and whether the answer was refused. */
    private final class Counted<RequestT, ResponseT>
            extends ForwardingServerCall.SimpleForwardingServerCall<RequestT, ResponseT> {

        private final AtomicLong held = new AtomicLong();
        private final AtomicBoolean refused = new AtomicBoolean();

        Counted(ServerCall<RequestT, ResponseT> call) {
            super(call);
        }

        @Override
        public void sendMessage(ResponseT message) {
            if (refused.get()) {
                return;
            }
            long size = sizeOf(message);
            if (!tryHold(size)) {
                refused.set(true);
                super.close(
                        Status.RESOURCE_EXHAUSTED.withDescription("the server holds " + unreadBytes()
                                + " bytes of answers its clients have not read yet, and this answer of " + size
                                + " bytes would exceed the budget of " + budgetBytes
                                + " (expected: a retry after a moment)"),
                        new Metadata());
                return;
            }
            held.addAndGet(size);
            super.sendMessage(message);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            if (!refused.get()) {
                super.close(status, trailers);
            }
        }

        void release() {
            UnreadAnswers.this.release(held.getAndSet(0));
        }
    }

    /** Registers the budget with Spring gRPC for every service. */
    @Configuration(proxyBeanMethods = false)
    static class UnreadAnswersConfiguration {

        @Bean
        @GlobalServerInterceptor
        UnreadAnswers unreadAnswers() {
            return new UnreadAnswers(defaultBudget());
        }
    }
}
