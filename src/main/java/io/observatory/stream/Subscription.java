package io.observatory.stream;

import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A stream's subscription to its producer, cancelled exactly once: when the stream ends, or at once when the stream
 * had already ended by the time the subscription arrived (a client that hung up while it was being set up). Any
 * thread.
 */
public final class Subscription {

    private final AtomicReference<@Nullable Runnable> cancel = new AtomicReference<>();

    /**
     * Keeps {@code cancel}, running it at once when {@code pump} has already ended.
     *
     * @param cancel stops the producer's feed
     */
    public void set(Runnable cancel, Pump<?> pump) {
        this.cancel.set(cancel);
        if (pump.ended()) {
            cancel();
        }
    }

    /** Stops the producer's feed; later calls do nothing. */
    public void cancel() {
        Runnable feed = cancel.getAndSet(null);
        if (feed != null) {
            feed.run();
        }
    }
}
