package io.observatory.observer;

import io.observatory.time.Ticker;
import java.time.Duration;

/**
 * The seam between an observer and time: every task runs on one writer thread, in order, so observer state needs
 * no locks. Production uses {@link ExecutorObserverScheduler}; tests use a fake that advances time by hand.
 */
public interface ObserverScheduler extends Ticker {

    /**
     * Runs {@code task} on the writer thread once {@code delay} has passed.
     *
     * @return a handle that cancels the task if it has not started
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** Runs {@code task} on the writer thread as soon as possible, after tasks already due. */
    default void execute(Runnable task) {
        schedule(Duration.ZERO, task);
    }

    /** A scheduled task that can still be cancelled. */
    @FunctionalInterface
    interface Cancellable {
        /** Cancels the task; does nothing if it already ran. */
        void cancel();
    }
}
