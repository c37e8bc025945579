package io.observatory.stream;

import io.grpc.Status;

/**
 * A bound on the bytes sent to clients that have not taken them yet, shared by every stream and answer of a server:
 * what a slow or stalled client holds stays in memory (Netty's direct buffers) until it reads it.
 */
public interface Budget {

    /** A budget that never refuses: for streams whose transport bounds itself. */
    Budget UNBOUNDED = new Budget() {
        @Override
        public boolean tryHold(long bytes) {
            return true;
        }

        @Override
        public boolean exhausted() {
            return false;
        }

        @Override
        public void release(long bytes) {}

        @Override
        public void whenReleased(Runnable wake) {
            wake.run();
        }

        @Override
        public Status refusal(String what) {
            return Status.RESOURCE_EXHAUSTED.withDescription(what);
        }
    };

    /** Holds {@code bytes} of a message about to be sent; false, holding nothing, when they do not fit. */
    boolean tryHold(long bytes);

    /** Whether the budget is spent (nothing more fits). */
    boolean exhausted();

    /** Gives back {@code bytes} a client has taken. */
    void release(long bytes);

    /**
     * Runs {@code wake} once, on a releasing thread, after bytes are next given back, or at once when none are held:
     * how a stream whose message did not fit learns that it may try again. {@code wake} must be quick.
     */
    void whenReleased(Runnable wake);

    /** The status that ends a stream whose message {@code what} (e.g. {@code this stream's first view}) did not fit. */
    Status refusal(String what);
}
