package io.observatory.stats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The last {@code capacity} probe outcomes of one outbound, each valid for a fixed time after it was recorded; Xray's
 * {@code HealthPingRTTS}. Times are readings of a monotonic ticker in nanoseconds, passed in by the caller, so the
 * ring is deterministic under a fake clock.
 *
 * <p>Not thread-safe: owned by one observer's writer thread.
 */
public final class RttRing {

    private final long[] rttNanos;
    private final long[] recordedAtNanos;
    private final byte[] outcome;
    private final long validityNanos;
    private int lastWritten = -1;

    private static final byte EMPTY = 0;
    private static final byte SUCCESS = 1;
    private static final byte FAILURE = 2;

    /**
     * Creates an empty ring.
     *
     * @param capacity number of slots (Xray: the sampling count); positive
     * @param validity age beyond which a sample no longer counts (Xray: 2 × interval × sampling); positive
     * @throws IllegalArgumentException if either is not positive
     */
    public RttRing(int capacity, Duration validity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: > 0)");
        }
        if (validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("validity: " + validity + " (expected: > 0)");
        }
        this.rttNanos = new long[capacity];
        this.recordedAtNanos = new long[capacity];
        this.outcome = new byte[capacity];
        this.validityNanos = validity.toNanos();
    }

    /** Records a successful probe, overwriting the oldest slot. */
    public void putSuccess(long rttNanos, long nowNanos) {
        put(SUCCESS, rttNanos, nowNanos);
    }

    /** Records a failed probe, overwriting the oldest slot. */
    public void putFailure(long nowNanos) {
        put(FAILURE, 0, nowNanos);
    }

    private void put(byte kind, long rtt, long nowNanos) {
        lastWritten = (lastWritten + 1) % outcome.length;
        outcome[lastWritten] = kind;
        rttNanos[lastWritten] = rtt;
        recordedAtNanos[lastWritten] = nowNanos;
    }

    /**
     * Computes the statistics over the samples valid at {@code nowNanos}: a sample counts while its age is at most the
     * validity (Xray drops it once {@code time.Since(t) > validity}). Plain loops over the slots, no allocation: the
     * burst observer computes this for every outbound at every publication, on the writer.
     */
    public HealthPingStats stats(long nowNanos) {
        int successes = 0;
        int failures = 0;
        long sum = 0;
        long max = 0;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < outcome.length; i++) {
            if (!valid(i, nowNanos)) {
                continue;
            }
            if (outcome[i] == FAILURE) {
                failures++;
                continue;
            }
            successes++;
            sum += rttNanos[i];
            max = Math.max(max, rttNanos[i]);
            min = Math.min(min, rttNanos[i]);
        }
        if (successes == 0) {
            return new HealthPingStats(failures, failures, 0, 0, 0, 0);
        }
        long average = sum / successes;
        return new HealthPingStats(
                successes + failures, failures, deviation(average, successes, nowNanos), average, max, min);
    }

    private long deviation(long average, int successes, long nowNanos) {
        if (successes < 2) {
            return average / 2;
        }
        double variance = 0;
        for (int i = 0; i < outcome.length; i++) {
            if (valid(i, nowNanos) && outcome[i] == SUCCESS) {
                double diff = rttNanos[i] - average;
                variance += diff * diff;
            }
        }
        return (long) Math.sqrt(variance / successes);
    }

    /**
     * One recorded sample, as {@link #samples} returns it and {@link #putSuccess}/{@link #putFailure} take it back.
     *
     * @param recordedAtNanos the ticker reading it was recorded at
     * @param success         whether the probe succeeded
     * @param rttNanos        its RTT; 0 for a failure
     */
    public record Sample(long recordedAtNanos, boolean success, long rttNanos) {}

    /** The samples valid at {@code nowNanos}, oldest first: what the statistics are computed from. */
    public List<Sample> samples(long nowNanos) {
        List<Sample> samples = new ArrayList<>(outcome.length);
        for (int i = 1; i <= outcome.length; i++) {
            int slot = (lastWritten + i) % outcome.length;
            if (lastWritten >= 0 && valid(slot, nowNanos)) {
                samples.add(new Sample(recordedAtNanos[slot], outcome[slot] == SUCCESS, rttNanos[slot]));
            }
        }
        return samples;
    }

    /** Returns {@code true} when no slot was ever written. */
    public boolean isEmpty() {
        return lastWritten < 0;
    }

    /**
     * Returns the ticker reading at which the next currently valid sample expires, so the owner can republish the
     * statistics exactly then; empty when no sample is valid.
     */
    public OptionalLong nextExpiryNanos(long nowNanos) {
        long next = Long.MAX_VALUE;
        boolean any = false;
        for (int i = 0; i < outcome.length; i++) {
            if (valid(i, nowNanos)) {
                any = true;
                next = Math.min(next, recordedAtNanos[i] + validityNanos + 1);
            }
        }
        return any ? OptionalLong.of(next) : OptionalLong.empty();
    }

    private boolean valid(int slot, long nowNanos) {
        return outcome[slot] != EMPTY && nowNanos - recordedAtNanos[slot] <= validityNanos;
    }
}
