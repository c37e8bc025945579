package io.observatory.incident.notify;

import io.observatory.incident.DrainQueue;
import io.observatory.time.Backoff;
import io.observatory.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
    private final DrainQueue<Notice> queue;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
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
        this.queue = new DrainQueue<>(
                new DrainQueue.Words(
                        channel.name() + ": queue",
                        "notices waiting to go out",
                        "observatory_notifications_dropped_total"),
                capacity,
                thread,
                this::drain);
    }

    /** Queues {@code notice}; never blocks. Any thread. */
    void offer(Notice notice) {
        queue.offer(notice);
    }

    /** Stops sending; what is queued stays unsent. */
    void stop() {
        thread.execute(() -> stopped = true);
    }

    String name() {
        return channel.name();
    }

    int queued() {
        return queue.size();
    }

    long sent() {
        return sent.get();
    }

    long failures() {
        return failures.get();
    }

    long dropped() {
        return queue.dropped();
    }

    private void drain() {
        for (List<Notice> head = queue.head(1); !head.isEmpty() && !stopped; head = queue.head(1)) {
            Notice notice = head.get(0);
            try {
                channel.send(notice);
                sent.incrementAndGet();
                delivered();
                queue.removeHead(1);
            } catch (Channel.Undeliverable e) {
                queue.drop(notice);
                log.error("{}: notice refused, dropped: {}", channel.name(), e.getMessage());
            } catch (Exception e) {
                failed(e);
                return;
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
        queue.schedule(backoff.next());
    }

    private void delivered() {
        if (failedAttempts > 0) {
            log.info("{}: delivering again after {} failed attempts", channel.name(), failedAttempts);
        }
        failedAttempts = 0;
        backoff.reset();
    }
}
