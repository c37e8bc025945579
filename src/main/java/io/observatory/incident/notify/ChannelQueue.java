package io.observatory.incident.notify;

import io.observatory.time.Backoff;
import io.observatory.time.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One channel's notices on their way: a bounded queue drained on the channel's own thread, one notice at a time, in
 * order. A notice that fails is retried after 1 s, doubling up to {@link #MAX_BACKOFF}, and holds the ones behind it
 * (they would fail alike); the outage is logged once when it starts and once when it ends. A notice the receiver
 * refuses for good ({@link Channel.Undeliverable}) is dropped with an ERROR. A full queue drops the newest notice and
 * counts it. Nothing here blocks the caller: the writer, the store and the other channels never wait for a receiver.
 * Costs one queue of at most {@code capacity} notices (a few KB each).
 */
final class ChannelQueue {

    /** The longest wait between two attempts while a receiver is down. */
    static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(ChannelQueue.class);

    private final Channel channel;
    private final Scheduler thread;
    private final int capacity;
    private final Object lock = new Object();
    // Guarded by lock.
    private final ArrayDeque<Notice> queue = new ArrayDeque<>();
    private boolean drainScheduled;
    private boolean full;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    // The channel's thread only.
    private final Backoff backoff = new Backoff(FIRST_BACKOFF, MAX_BACKOFF);
    private int failedAttempts;
    private boolean stopped;

    /**
     * @param channel  where the notices go
     * @param thread   the channel's own thread
     * @param capacity the most notices queued, positive
     */
    ChannelQueue(Channel channel, Scheduler thread, int capacity) {
        this.channel = channel;
        this.thread = thread;
        this.capacity = capacity;
    }

    /** Queues {@code notice}; never blocks. Any thread. */
    void offer(Notice notice) {
        synchronized (lock) {
            if (queue.size() >= capacity) {
                dropped.incrementAndGet();
                if (!full) {
                    full = true;
                    log.warn(
                            "{}: {} notices wait already; dropping new ones until they go out"
                                    + " (observatory_notifications_dropped_total)",
                            channel.name(),
                            capacity);
                }
                return;
            }
            queue.addLast(notice);
        }
        schedule(Duration.ZERO);
    }

    /** Stops sending; what is queued stays unsent. */
    void stop() {
        thread.execute(() -> stopped = true);
    }

    String name() {
        return channel.name();
    }

    int queued() {
        synchronized (lock) {
            return queue.size();
        }
    }

    long sent() {
        return sent.get();
    }

    long failures() {
        return failures.get();
    }

    long dropped() {
        return dropped.get();
    }

    private void schedule(Duration delay) {
        synchronized (lock) {
            if (drainScheduled) {
                return;
            }
            drainScheduled = true;
        }
        thread.schedule(delay, this::drain);
    }

    private void drain() {
        synchronized (lock) {
            drainScheduled = false;
        }
        for (Notice notice = peek(); notice != null && !stopped; notice = peek()) {
            try {
                channel.send(notice);
                sent.incrementAndGet();
                delivered();
            } catch (Channel.Undeliverable e) {
                dropped.incrementAndGet();
                log.error("{}: notice refused, dropped: {}", channel.name(), e.getMessage());
            } catch (Exception e) {
                failed(e);
                return;
            }
            remove();
        }
    }

    private @Nullable Notice peek() {
        synchronized (lock) {
            return queue.peekFirst();
        }
    }

    /** Removes the notice at the head, just sent or dropped: only this thread removes. */
    private void remove() {
        synchronized (lock) {
            queue.pollFirst();
            if (full && queue.size() < capacity / 2 + 1) {
                full = false;
            }
        }
    }

    private void failed(Exception e) {
        failures.incrementAndGet();
        if (failedAttempts++ == 0) {
            log.warn(
                    "{}: cannot deliver ({}); retrying, {} notices waiting",
                    channel.name(),
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(),
                    queued());
        }
        schedule(backoff.next());
    }

    private void delivered() {
        if (failedAttempts > 0) {
            log.info("{}: delivering again after {} failed attempts", channel.name(), failedAttempts);
        }
        failedAttempts = 0;
        backoff.reset();
    }
}
