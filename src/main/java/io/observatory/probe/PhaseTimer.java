package io.observatory.probe;

import io.observatory.time.Ticker;
import java.net.URI;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where one probe is: the URL of its current request and the ticker readings at the phase boundaries of that
 * request's connection. Written on the connection's event loop, read by whichever thread completes the probe
 * (possibly the timeout timer); each reader takes one {@link Marks} snapshot, so phases, RTT and the classification
 * of an error always describe the same request.
 */
final class PhaseTimer {

    /** A boundary of one request's connection, in path order. */
    enum Mark {
        RESOLVE_STARTED, CONNECT_STARTED, CONNECTED, PROXY_HANDSHAKE_DONE, TLS_HANDSHAKE_DONE, RESPONSE_HEADERS
    }

    private static final long UNSET = Long.MIN_VALUE;

    private final Ticker ticker;
    private final long startNanos;
    // Replaced whole (copy on write): stamped on the event loop, read by the thread that completes the probe.
    private final AtomicReference<Marks> marks;

    /**
     * @param ticker          monotonic clock
     * @param target          the URL of the probe's first request
     * @param resolvesLocally whether the first hop is a host name resolved here (not an IP literal); only then is a
     *                        DNS phase reported
     */
    PhaseTimer(Ticker ticker, URI target, boolean resolvesLocally) {
        this.ticker = ticker;
        this.startNanos = ticker.nanoTime();
        this.marks = new AtomicReference<>(new Marks(target, resolvesLocally, unset()));
    }

    private static long[] unset() {
        long[] unset = new long[Mark.values().length];
        Arrays.fill(unset, UNSET);
        return unset;
    }

    /** Starts the marks again for the next request of the probe (a followed redirect) to {@code target}. */
    void nextRequest(URI target, boolean resolvesLocally) {
        marks.set(new Marks(target, resolvesLocally, unset()));
    }

    /** Records that the current request reached {@code mark} now. */
    void stamp(Mark mark) {
        long now = ticker.nanoTime();
        marks.updateAndGet(current -> current.with(mark, now));
    }

    /** Nanoseconds from the probe start until now. */
    long elapsedNanos() {
        return ticker.nanoTime() - startNanos;
    }

    /**
     * The path's RTT until now, as {@link ProbeResult#rttNanos()} defines it: from the first network operation of
     * the current request (local name resolution, else the TCP connect); before any, the time since the probe started.
     */
    long rttNanos(Marks at) {
        long networkStart = at.dnsMeasured() ? at.at(Mark.RESOLVE_STARTED) : at.at(Mark.CONNECT_STARTED);
        return ticker.nanoTime() - (networkStart == UNSET ? startNanos : networkStart);
    }

    /** The current request and its marks, as one snapshot. */
    Marks marks() {
        return marks.get();
    }

    /**
     * One request's URL and the readings at its connection's boundaries; immutable.
     *
     * @param target          the request's URL
     * @param resolvesLocally whether its first hop is a host name resolved here
     */
    record Marks(URI target, boolean resolvesLocally, long[] stamps) {

        private Marks with(Mark mark, long nanos) {
            long[] next = stamps.clone();
            next[mark.ordinal()] = nanos;
            return new Marks(target, resolvesLocally, next);
        }

        /** Whether the request has reached {@code mark}. */
        boolean reached(Mark mark) {
            return at(mark) != UNSET;
        }

        /** Whether the request goes over TLS. */
        boolean secure() {
            return "https".equalsIgnoreCase(target.getScheme());
        }

        private long at(Mark mark) {
            return stamps[mark.ordinal()];
        }

        private boolean dnsMeasured() {
            return resolvesLocally && reached(Mark.RESOLVE_STARTED);
        }

        /** The phases reached. */
        ProbePhases phases() {
            long connected = at(Mark.CONNECTED);
            long proxyDone = at(Mark.PROXY_HANDSHAKE_DONE);
            long tlsDone = at(Mark.TLS_HANDSHAKE_DONE);
            long dns = dnsMeasured() ? span(at(Mark.RESOLVE_STARTED), at(Mark.CONNECT_STARTED))
                    : ProbePhases.NOT_MEASURED;
            long readyFrom = proxyDone != UNSET ? proxyDone : connected;
            long ready = tlsDone != UNSET ? tlsDone : readyFrom;
            return new ProbePhases(dns, span(at(Mark.CONNECT_STARTED), connected), span(connected, proxyDone),
                    span(readyFrom, tlsDone), span(ready, at(Mark.RESPONSE_HEADERS)));
        }

        private static long span(long from, long to) {
            return from == UNSET || to == UNSET ? ProbePhases.NOT_MEASURED : to - from;
        }
    }
}
