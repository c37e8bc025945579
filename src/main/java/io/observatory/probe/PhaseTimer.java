package io.observatory.probe;

import io.observatory.time.Ticker;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

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
    // Copy on write: stamped on the event loop, read by the completing thread (the deadline may fire on another
    // thread), which must see one connection's marks, never a half-reset set.
    private final AtomicReference<long[]> stamps;

    /**
     * @param ticker monotonic clock
     * @param resolvesLocally whether the first hop is a host name resolved here (not an IP literal); only then is a
     *     DNS phase reported
     */
    PhaseTimer(Ticker ticker, boolean resolvesLocally) {
        this.ticker = ticker;
        this.resolvesLocally = resolvesLocally;
        this.startNanos = ticker.nanoTime();
        this.stamps = new AtomicReference<>(unset());
    }

    private static long[] unset() {
        long[] unset = new long[Mark.values().length];
        Arrays.fill(unset, UNSET);
        return unset;
    }

    /**
     * Records that the probe reached {@code mark} now. A connection that starts after another one connected (a
     * followed redirect) starts the marks again, so the phases and the classification of an error are the last
     * connection's.
     */
    void stamp(Mark mark) {
        long now = ticker.nanoTime();
        stamps.updateAndGet(current -> {
            boolean newConnection = (mark == Mark.RESOLVE_STARTED || mark == Mark.CONNECT_STARTED)
                    && current[Mark.CONNECTED.ordinal()] != UNSET;
            long[] next = newConnection ? unset() : current.clone();
            next[mark.ordinal()] = now;
            return next;
        });
    }

    /** Whether the probe has reached {@code mark}. */
    boolean reached(Mark mark) {
        return stamps.get()[mark.ordinal()] != UNSET;
    }

    /** Nanoseconds from the probe start until now. */
    long elapsedNanos() {
        return ticker.nanoTime() - startNanos;
    }

    /**
     * The path's RTT until now, as {@link ProbeResult#rttNanos()} defines it: from the probe's first network operation
     * (local name resolution, else the TCP connect) of its last connection; before any network operation, the time
     * since the probe started.
     */
    long rttNanos() {
        long now = ticker.nanoTime();
        long[] at = stamps.get();
        long networkStart = dnsMeasured(at) ? at[Mark.RESOLVE_STARTED.ordinal()] : at[Mark.CONNECT_STARTED.ordinal()];
        return now - (networkStart == UNSET ? startNanos : networkStart);
    }

    private boolean dnsMeasured(long[] at) {
        return resolvesLocally && at[Mark.RESOLVE_STARTED.ordinal()] != UNSET;
    }

    /** The phases reached so far, all of one connection. */
    ProbePhases phases() {
        long[] at = stamps.get();
        long resolveStarted = at[Mark.RESOLVE_STARTED.ordinal()];
        long connectStarted = at[Mark.CONNECT_STARTED.ordinal()];
        long connected = at[Mark.CONNECTED.ordinal()];
        long proxyDone = at[Mark.PROXY_HANDSHAKE_DONE.ordinal()];
        long tlsDone = at[Mark.TLS_HANDSHAKE_DONE.ordinal()];
        long dns = dnsMeasured(at) ? span(resolveStarted, connectStarted) : ProbePhases.NOT_MEASURED;
        long readyFrom = proxyDone != UNSET ? proxyDone : connected;
        long ready = tlsDone != UNSET ? tlsDone : readyFrom;
        return new ProbePhases(dns, span(connectStarted, connected), span(connected, proxyDone),
                span(readyFrom, tlsDone), span(ready, at[Mark.RESPONSE_HEADERS.ordinal()]));
    }

    private static long span(long from, long to) {
        return from == UNSET || to == UNSET ? ProbePhases.NOT_MEASURED : to - from;
    }
}
