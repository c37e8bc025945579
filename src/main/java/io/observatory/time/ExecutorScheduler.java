package io.observatory.time;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link Scheduler}: one daemon thread with a delay queue. A task that throws, an {@link Error}
 * included, is logged and the thread goes on with the next one (as grpc-java's {@code SynchronizationContext} hands
 * it to its handler); the executor would otherwise keep it in a future nobody reads. Delays are measured by the JDK's
 * delay queue on {@link System#nanoTime()}, which is also what the injected {@link Ticker} reads in production.
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExecutorScheduler.class);

    private final String threadName;
    private final Ticker ticker;
    private final ScheduledThreadPoolExecutor executor;
    // volatile: set once by the thread factory, read by any thread asking inSchedulerThread; null until it ran.
    private volatile @Nullable Thread thread;

    /**
     * @param threadName name of the scheduler's thread, for thread dumps and log lines
     * @param ticker     what {@link #nanoTime()} reads: the service's ticker
     */
    public ExecutorScheduler(String threadName, Ticker ticker) {
        this.threadName = threadName;
        this.ticker = ticker;
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread created = new Thread(runnable, threadName);
            created.setDaemon(true);
            thread = created;
            return created;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        try {
            ScheduledFuture<?> future = executor.schedule(() -> runLogged(task), delay.toNanos(), TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        } catch (RejectedExecutionException e) {
            // Closed at shutdown (possibly between another thread's check and this call): the task is not needed.
            log.debug("task not scheduled: the scheduler {} has stopped", this);
            return () -> {};
        }
    }

    @Override
    public long nanoTime() {
        return ticker.nanoTime();
    }

    @Override
    public boolean inSchedulerThread() {
        return Thread.currentThread() == thread;
    }

    /** Stops the thread; pending tasks are dropped. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** The thread's name, e.g. {@code observatory-writer}. */
    @Override
    public String toString() {
        return threadName;
    }

    private static void runLogged(Runnable task) {
        try {
            task.run();
        } catch (Throwable e) {
            log.error("scheduled task failed; the scheduler goes on with the next one", e);
        }
    }
}
