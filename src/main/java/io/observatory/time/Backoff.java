package io.observatory.time;

import java.time.Duration;
import java.util.Objects;

/**
 * Doubling delays between attempts, as grpc-java's and Envoy's reconnect backoff without the jitter: {@code first},
 * then twice the last, at most {@code max}, until {@link #reset}. Confined to the thread that retries.
 */
public final class Backoff {

    private final Duration first;
    private final Duration max;
    private Duration next;

    /**
     * @param first the first delay, positive
     * @param max   the longest, at least {@code first}
     */
    public Backoff(Duration first, Duration max) {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException(
                    "backoff " + first + " up to " + max + " (expected: a positive first delay, at most the longest)");
        }
        this.first = first;
        this.max = max;
        this.next = first;
    }

    /** The delay before the next attempt; the one after it doubles, up to the longest. */
    public Duration next() {
        Duration delay = next;
        Duration doubled = next.multipliedBy(2);
        next = doubled.compareTo(max) > 0 ? max : doubled;
        return delay;
    }

    /** The delay {@link #next} will return, without taking it. */
    public Duration peek() {
        return next;
    }

    /** Starts over from the first delay: the last attempt succeeded. */
    public void reset() {
        next = first;
    }

    @Override
    public String toString() {
        return "backoff " + first + " up to " + max + ", next " + Objects.toString(next);
    }
}
