package io.observatory.testing;

import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.PriorityQueue;

/**
 * A deterministic {@link Scheduler}: time stands still until {@link #advance} moves it; due tasks then run on
 * the calling thread in due-time order (FIFO among equals), like grpc-java's {@code FakeClock}.
 */
public final class FakeScheduler implements Scheduler {

    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private final Instant epoch = Instant.parse("2026-11-29T12:00:00Z");
    private long nowNanos;
    private long sequence;
    private boolean running;

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        Task scheduled = new Task(nowNanos + delay.toNanos(), sequence++, task);
        queue.add(scheduled);
        return () -> queue.remove(scheduled);
    }

    @Override
    public long nanoTime() {
        return nowNanos;
    }

    /** True while {@link #advance} runs one of the tasks. */
    @Override
    public boolean inSchedulerThread() {
        return running;
    }

    /** Runs every task due now, including tasks those tasks schedule for now. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** Moves time forward by {@code step}, running each task at its due time. */
    public void advance(Duration step) {
        long target = nowNanos + step.toNanos();
        while (!queue.isEmpty() && queue.peek().dueNanos <= target) {
            Task next = queue.poll();
            nowNanos = Math.max(nowNanos, next.dueNanos);
            running = true;
            try {
                next.runnable.run();
            } finally {
                running = false;
            }
        }
        nowNanos = target;
    }

    /** Moves time to the earliest waiting task's due time and runs every task due then; nothing without tasks. */
    public void advanceToNextTask() {
        if (!queue.isEmpty()) {
            advance(Duration.ofNanos(Math.max(0, queue.peek().dueNanos - nowNanos)));
        }
    }

    /** Tasks waiting to run. */
    public int pendingTasks() {
        return queue.size();
    }

    /** A wall clock that follows this scheduler's time. */
    public Clock clock() {
        return new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Instant instant() {
                return epoch.plusNanos(nowNanos);
            }
        };
    }

    private record Task(long dueNanos, long order, Runnable runnable) implements Comparable<Task> {
        @Override
        public int compareTo(Task other) {
            int byTime = Long.compare(dueNanos, other.dueNanos);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
