package io.observatory.observer;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The production {@link ObserverScheduler}: one daemon thread with a delay queue. */
public final class ExecutorObserverScheduler implements ObserverScheduler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExecutorObserverScheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    /** @param threadName name of the writer thread, for thread dumps */
    public ExecutorObserverScheduler(String threadName) {
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> future;
        try {
            future = executor.schedule(() -> runLogged(task), delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // Closed at shutdown (possibly between another thread's check and this call): the task is not needed.
            log.debug("task not scheduled: the writer thread has stopped");
            return () -> { };
        }
        return () -> future.cancel(false);
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /** Stops the writer thread; pending tasks are dropped. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            log.error("observer task failed; the observer keeps running", e);
        }
    }
}
