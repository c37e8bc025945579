package io.observatory.stream;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The open streams of one kind (e.g. every {@code WatchMesh} call) and the delivery threads they share: registers each
 * stream, ends every one of them once when the service shuts down, and stops the threads after. A stream opened while
 * the service shuts down is refused, so every stream is either ended by {@link #endAll} or never registered. Costs one
 * set entry per open stream.
 *
 * @param <S> the stream type
 */
public final class StreamRegistry<S> {

    private final ExecutorService delivery;
    private final Set<S> streams = ConcurrentHashMap.newKeySet();
    // Set by the thread closing the context, read by threads opening streams after they registered theirs.
    private volatile boolean closing;

    /**
     * @param threadName the delivery threads' name, numbered when there are several
     * @param threads    how many delivery threads the streams share
     */
    public StreamRegistry(String threadName, int threads) {
        AtomicInteger count = new AtomicInteger();
        this.delivery = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread =
                    new Thread(runnable, threads == 1 ? threadName : threadName + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Where the streams' messages are built and sent, off the producer's thread. */
    public Executor delivery() {
        return delivery;
    }

    /**
     * Registers {@code stream}.
     *
     * @return {@code false} when the service is shutting down: the stream is not registered and the caller ends it
     */
    public boolean add(S stream) {
        streams.add(stream);
        if (closing) {
            streams.remove(stream);
            return false;
        }
        return true;
    }

    /** Forgets {@code stream}, which ended by itself or was cancelled; any thread, idempotent. */
    public void remove(S stream) {
        streams.remove(stream);
    }

    /** The number of open streams. */
    public int size() {
        return streams.size();
    }

    /** Refuses new streams and ends each open one with {@code end}, once; as the context closes. */
    public void endAll(Consumer<S> end) {
        closing = true;
        for (S stream : List.copyOf(streams)) {
            if (streams.remove(stream)) {
                end.accept(stream);
            }
        }
    }

    /** Lets the last messages go out for at most {@code grace}, then stops the delivery threads. */
    public void stop(Duration grace) throws InterruptedException {
        delivery.shutdown();
        if (!delivery.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            delivery.shutdownNow();
        }
    }
}
