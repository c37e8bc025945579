package io.observatory.time;

import java.time.Duration;

/**
 * A serialising executor with a clock: every task runs on one thread, one at a time, in due order, so the state it
 * confines needs no locks (grpc-java's {@code SynchronizationContext} discipline, with delays). The service's writer
 * is one such scheduler: every state change (probe results, passive reports, reloads, reactivation) runs on it, and
 * only it publishes snapshots. Production uses {@link ExecutorScheduler}; tests use a fake that advances time by
 * hand.
 */
public interface Scheduler extends Ticker {

    /**
     * Runs {@code task} on the scheduler's thread once {@code delay} has passed on its {@link Ticker}.
     *
     * @return a handle that cancels the task if it has not started
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** Runs {@code task} on the scheduler's thread as soon as possible, after the tasks already due. */
    default void execute(Runnable task) {
        schedule(Duration.ZERO, task);
    }

    /**
     * Whether the calling thread is the scheduler's own, running one of its tasks: true exactly where the state the
     * scheduler confines may be touched.
     */
    boolean inSchedulerThread();

    /** A scheduled task that can still be cancelled. */
    @FunctionalInterface
    interface Cancellable {

        /** Cancels the task; does nothing if it already ran. */
        void cancel();
    }
}
