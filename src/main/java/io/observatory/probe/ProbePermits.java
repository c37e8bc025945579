package io.observatory.probe;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Bounds the number of probes in flight without blocking a thread: a probe beyond the bound waits in a FIFO queue
 * until a running probe ends, it is never dropped. Cancelling a waiting probe removes it from the line.
 */
final class ProbePermits {

    private final Semaphore permits;
    private final Queue<Ticket<?>> waiting = new ConcurrentLinkedQueue<>();

    /**
     * @param maxInFlight probes allowed to run at once; positive
     */
    ProbePermits(int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight: " + maxInFlight + " (expected: > 0)");
        }
        this.permits = new Semaphore(maxInFlight);
    }

    /** Runs {@code task} once a permit is free and releases it when the task's {@link Mono} ends or is cancelled. */
    <T> Mono<T> withPermit(Supplier<Mono<T>> task) {
        return Mono.create(sink -> {
            Ticket<T> ticket = new Ticket<>(sink, task);
            sink.onCancel(ticket);
            waiting.add(ticket);
            drain();
        });
    }

    /** Probes currently waiting for a permit (including cancelled ones not yet swept). */
    int waitingCount() {
        return waiting.size();
    }

    /** Permits currently free. */
    int availablePermits() {
        return permits.availablePermits();
    }

    private void release() {
        permits.release();
        drain();
    }

    private void drain() {
        while (!waiting.isEmpty() && permits.tryAcquire()) {
            Ticket<?> next = waiting.poll();
            if (next == null || !next.start()) {
                permits.release();
            }
        }
    }

    /** One waiting probe; disposing it cancels it whether it waits or runs. */
    private final class Ticket<T> implements Disposable {

        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int CANCELLED = 2;

        private final MonoSink<T> sink;
        private final Supplier<Mono<T>> task;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        // volatile: set by the thread that starts the task, read by the thread that cancels it; null until then.
        private volatile @Nullable Disposable running;

        Ticket(MonoSink<T> sink, Supplier<Mono<T>> task) {
            this.sink = sink;
            this.task = task;
        }

        /** Starts the task holding a permit; returns {@code false} if the ticket was cancelled while waiting. */
        boolean start() {
            if (!state.compareAndSet(WAITING, RUNNING)) {
                return false;
            }
            Disposable started = Mono.defer(task)
                    .doFinally(signal -> release())
                    .subscribe(sink::success, sink::error, () -> sink.success());
            running = started;
            if (state.get() == CANCELLED) {
                started.dispose();
            }
            return true;
        }

        @Override
        public void dispose() {
            int previous = state.getAndSet(CANCELLED);
            Disposable task = running;
            if (previous == RUNNING && task != null) {
                task.dispose();
            }
        }

        @Override
        public boolean isDisposed() {
            return state.get() == CANCELLED;
        }
    }
}
