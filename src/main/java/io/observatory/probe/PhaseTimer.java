package io.observatory.probe;

import io.observatory.time.Ticker;

/**
 * Ticker readings at the phase boundaries of one probe. Written on the connection's event loop, read by whichever
 * thread completes the probe (possibly the timeout timer), hence the volatile fields.
 */
final class PhaseTimer {

    private static final long UNSET = Long.MIN_VALUE;

    private final Ticker ticker;
    private final boolean resolvesLocally;
    private final long startNanos;
    // volatile: set on the event loop, read by the completing thread (the deadline may fire on another thread).
    private volatile long resolveStartNanos = UNSET;
    private volatile long connectStartNanos = UNSET;
    private volatile long connectedNanos = UNSET;
    private volatile long proxyDoneNanos = UNSET;
    private volatile long tlsDoneNanos = UNSET;
    private volatile long responseNanos = UNSET;

    /**
     * @param ticker monotonic clock
     * @param resolvesLocally whether the first hop is a host name resolved here (not an IP literal); only then is a
     *     DNS phase reported
     */
    PhaseTimer(Ticker ticker, boolean resolvesLocally) {
        this.ticker = ticker;
        this.resolvesLocally = resolvesLocally;
        this.startNanos = ticker.nanoTime();
    }

    void resolveStarted() {
        resolveStartNanos = ticker.nanoTime();
    }

    void connectStarted() {
        connectStartNanos = ticker.nanoTime();
    }

    void connected() {
        connectedNanos = ticker.nanoTime();
    }

    void proxyHandshakeDone() {
        proxyDoneNanos = ticker.nanoTime();
    }

    void tlsHandshakeDone() {
        tlsDoneNanos = ticker.nanoTime();
    }

    void responseHeadersReceived() {
        responseNanos = ticker.nanoTime();
    }

    boolean isConnected() {
        return connectedNanos != UNSET;
    }

    boolean isProxyHandshakeDone() {
        return proxyDoneNanos != UNSET;
    }

    boolean isTlsHandshakeDone() {
        return tlsDoneNanos != UNSET;
    }

    boolean hasResponseHeaders() {
        return responseNanos != UNSET;
    }

    /** Nanoseconds from the probe start until now. */
    long elapsedNanos() {
        return ticker.nanoTime() - startNanos;
    }

    /**
     * Nanoseconds from the probe's first network operation (local name resolution, else the TCP connect) until now:
     * the path's RTT, without the client's own connection setup, comparable to what curl or Go's client measure.
     * Before any network operation, the time since the probe started.
     */
    long rttNanos() {
        long now = ticker.nanoTime();
        long networkStart = dnsMeasured() ? resolveStartNanos : connectStartNanos;
        return now - (networkStart == UNSET ? startNanos : networkStart);
    }

    private boolean dnsMeasured() {
        return resolvesLocally && resolveStartNanos != UNSET;
    }

    /** The phases reached so far. */
    ProbePhases phases() {
        long dns = dnsMeasured() ? span(resolveStartNanos, connectStartNanos) : ProbePhases.NOT_MEASURED;
        long connect = span(connectStartNanos, connectedNanos);
        long proxy = span(connectedNanos, proxyDoneNanos);
        long readyFrom = proxyDoneNanos != UNSET ? proxyDoneNanos : connectedNanos;
        long tls = span(readyFrom, tlsDoneNanos);
        long ready = tlsDoneNanos != UNSET ? tlsDoneNanos : readyFrom;
        long firstByte = span(ready, responseNanos);
        return new ProbePhases(dns, connect, proxy, tls, firstByte);
    }

    private static long span(long from, long to) {
        return from == UNSET || to == UNSET ? ProbePhases.NOT_MEASURED : to - from;
    }
}
