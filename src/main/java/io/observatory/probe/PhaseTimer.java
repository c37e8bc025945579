package io.observatory.probe;

import io.observatory.time.Ticker;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Ticker readings at the phase boundaries of one probe. Written on the connection's event loop, read by whichever
 * thread completes the probe (possibly the timeout timer), hence the atomic array.
 */
final class PhaseTimer {

    /** A boundary of one probe, in path order. */
    enum Mark {
        RESOLVE_STARTED, CONNECT_STARTED, CONNECTED, PROXY_HANDSHAKE_DONE, TLS_HANDSHAKE_DONE, RESPONSE_HEADERS
    }

    private static final long UNSET = Long.MIN_VALUE;

    private final Ticker ticker;
    private final boolean resolvesLocally;
    private final long startNanos;
    // Atomic: stamped on the event loop, read by the completing thread (the deadline may fire on another thread).
    private final AtomicLongArray stamps;

    /**
     * @param ticker monotonic clock
     * @param resolvesLocally whether the first hop is a host name resolved here (not an IP literal); only then is a
     *     DNS phase reported
     */
    PhaseTimer(Ticker ticker, boolean resolvesLocally) {
        this.ticker = ticker;
        this.resolvesLocally = resolvesLocally;
        this.startNanos = ticker.nanoTime();
        long[] unset = new long[Mark.values().length];
        Arrays.fill(unset, UNSET);
        this.stamps = new AtomicLongArray(unset);
    }

    /**
     * Records that the probe reached {@code mark} now. A connection that starts after another one connected (a
     * followed redirect) starts the marks again, so the phases and the classification of an error are the last
     * connection's.
     */
    void stamp(Mark mark) {
        if ((mark == Mark.RESOLVE_STARTED || mark == Mark.CONNECT_STARTED) && reached(Mark.CONNECTED)) {
            for (int i = 0; i < stamps.length(); i++) {
                stamps.set(i, UNSET);
            }
        }
        stamps.set(mark.ordinal(), ticker.nanoTime());
    }

    /** Whether the probe has reached {@code mark}. */
    boolean reached(Mark mark) {
        return at(mark) != UNSET;
    }

    /** Nanoseconds from the probe start until now. */
    long elapsedNanos() {
        return ticker.nanoTime() - startNanos;
    }

    /**
     * The path's RTT until now, as {@link ProbeResult#rttNanos()} defines it: from the probe's first network operation
     * (local name resolution, else the TCP connect); before any network operation, the time since the probe started.
     */
    long rttNanos() {
        long now = ticker.nanoTime();
        long networkStart = dnsMeasured() ? at(Mark.RESOLVE_STARTED) : at(Mark.CONNECT_STARTED);
        return now - (networkStart == UNSET ? startNanos : networkStart);
    }

    private boolean dnsMeasured() {
        return resolvesLocally && reached(Mark.RESOLVE_STARTED);
    }

    /** The phases reached so far. */
    ProbePhases phases() {
        long dns = dnsMeasured() ? span(at(Mark.RESOLVE_STARTED), at(Mark.CONNECT_STARTED)) : ProbePhases.NOT_MEASURED;
        long connect = span(at(Mark.CONNECT_STARTED), at(Mark.CONNECTED));
        long proxy = span(at(Mark.CONNECTED), at(Mark.PROXY_HANDSHAKE_DONE));
        long readyFrom = reached(Mark.PROXY_HANDSHAKE_DONE) ? at(Mark.PROXY_HANDSHAKE_DONE) : at(Mark.CONNECTED);
        long tls = span(readyFrom, at(Mark.TLS_HANDSHAKE_DONE));
        long ready = reached(Mark.TLS_HANDSHAKE_DONE) ? at(Mark.TLS_HANDSHAKE_DONE) : readyFrom;
        long firstByte = span(ready, at(Mark.RESPONSE_HEADERS));
        return new ProbePhases(dns, connect, proxy, tls, firstByte);
    }

    private long at(Mark mark) {
        return stamps.get(mark.ordinal());
    }

    private static long span(long from, long to) {
        return from == UNSET || to == UNSET ? ProbePhases.NOT_MEASURED : to - from;
    }
}
