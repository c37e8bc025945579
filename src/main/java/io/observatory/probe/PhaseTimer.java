package io.observatory.probe;

import io.observatory.time.Ticker;
import java.net.URI;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where one probe is: the URL of its current request and the ticker readings at the phase boundaries of that
 * request's connection. Written on the connection's event loop, read by whichever thread completes the probe
 * (possibly the timeout timer); each reader takes one {@link Marks} snapshot, so phases, RTT and the classification
 * of an error always describe the same request.
 */
final class PhaseTimer {

    /**
     * A boundary of one request's connection, in path order, each stamped on the connection's event loop in the call
     * that reports the socket event it stands for (see {@link PhaseTimingHandler} and {@link ReplyTimingHandler}).
     */
    enum Mark {
        /** Local name resolution of the first hop began. */
        RESOLVE_STARTED,
        /** It ended with an address. */
        RESOLVED,
        /** The TCP connect to the first hop was handed to the socket. */
        CONNECT_STARTED,
        /** The socket reported the connection established. */
        CONNECTED,
        /** The read that completed the proxy's last handshake reply (SOCKS5 connect reply, CONNECT response) began. */
        PROXY_HANDSHAKE_DONE,
        /** The TLS handshake with the target finished. */
        TLS_HANDSHAKE_DONE,
        /** The request's first bytes were handed to the socket. */
        REQUEST_WRITTEN,
        /** The read that completed the response headers began. */
        RESPONSE_HEADERS,
        /** The read that completed the response body began. */
        RESPONSE_END
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
        this.marks = new AtomicReference<>(new Marks(target, resolvesLocally, 0, unset(), UNSET));
    }

    private static long[] unset() {
        long[] unset = new long[Mark.values().length];
        Arrays.fill(unset, UNSET);
        return unset;
    }

    /** Starts the marks again for the next request of the probe (a followed redirect) to {@code target}. */
    void nextRequest(URI target, boolean resolvesLocally) {
        marks.updateAndGet(current -> new Marks(target, resolvesLocally, current.request() + 1, unset(), UNSET));
    }

    /**
     * The stamps of one connection, bound to the request that is current when the connection is set up: a late event
     * of an earlier request's connection (its close after a redirect) can never stamp the next request's marks.
     */
    ConnectionStamps connection() {
        return new ConnectionStamps(marks().request());
    }

    /**
     * Stamps one connection's boundaries on its probe's marks, if its request is still the current one. Confined to
     * the connection's event loop, like the handlers that hold it; costs one int and one long.
     */
    final class ConnectionStamps {

        private final int request;
        // The reading at the start of the connection's current inbound read.
        private long readNanos;
        // The proxy handshake: the reading when the message awaiting a reply was handed to the socket, and the sum
        // of the exchanges so far.
        private long handshakeWrite = UNSET;
        private long handshakeWire = UNSET;

        private ConnectionStamps(int request) {
            this.request = request;
        }

        /** Records that the connection's request reached {@code mark} now. */
        void stamp(Mark mark) {
            stampAt(mark, ticker.nanoTime());
        }

        /** Records that {@code mark} was reached now unless it was already: the first of several connect attempts. */
        void stampFirst(Mark mark) {
            long now = ticker.nanoTime();
            marks.updateAndGet(current ->
                    current.request() != request || current.reached(mark) ? current : current.with(mark, now));
        }

        /** Records that an inbound read of the connection begins now: the end of a handshake exchange, if one is open. */
        void readStarted() {
            readNanos = ticker.nanoTime();
            if (handshakeWrite != UNSET) {
                handshakeWire = (handshakeWire == UNSET ? 0 : handshakeWire) + readNanos - handshakeWrite;
                handshakeWrite = UNSET;
            }
        }

        /**
         * Records that a message of the proxy handshake is handed to the socket now; the exchange lasts until the next
         * read begins. A second message before a reply (none in SOCKS5 or CONNECT) belongs to the same exchange.
         */
        void handshakeWritten() {
            if (handshakeWrite == UNSET) {
                handshakeWrite = ticker.nanoTime();
            }
        }

        /**
         * Records that the connection's request reached {@code mark} with the bytes of the inbound read in progress,
         * at the reading {@link #readStarted()} took when that read began.
         */
        void stampAtRead(Mark mark) {
            stampAt(mark, readNanos);
        }

        /** The current request and its marks, as one snapshot. */
        Marks marks() {
            return PhaseTimer.this.marks();
        }

        private void stampAt(Mark mark, long nanos) {
            long wire = handshakeWire;
            marks.updateAndGet(current -> {
                if (current.request() != request) {
                    return current;
                }
                Marks next = current.with(mark, nanos);
                return mark == Mark.PROXY_HANDSHAKE_DONE ? next.withProxyWire(wire) : next;
            });
        }
    }

    /** Nanoseconds from the probe start until now. */
    long elapsedNanos() {
        return ticker.nanoTime() - startNanos;
    }

    /** The current request and its marks, as one snapshot. */
    Marks marks() {
        return Objects.requireNonNull(marks.get(), "set at construction");
    }

    /**
     * One request's URL and the readings at its connection's boundaries; immutable.
     *
     * @param target          the request's URL
     * @param resolvesLocally whether its first hop is a host name resolved here
     * @param request         which request of the probe: 0 for the first, one more for each followed redirect
     * @param stamps          the readings by {@link Mark} ordinal, {@code Long.MIN_VALUE} where not reached
     * @param proxyWireNanos  the proxy handshake's time on the wire: the sum, over its exchanges, of the span from the
     *                        first bytes of a message handed to the socket until the read that brought the proxy's
     *                        reply began (the client's work between a reply and its next message left out);
     *                        {@code Long.MIN_VALUE} until the handshake is done
     */
    // Never shared: each change makes a copy, and no two are compared; a Mark's ordinal is its slot.
    @SuppressWarnings({"ArrayRecordComponent", "EnumOrdinal"})
    record Marks(URI target, boolean resolvesLocally, int request, long[] stamps, long proxyWireNanos) {

        private Marks withProxyWire(long nanos) {
            return new Marks(target, resolvesLocally, request, stamps, nanos);
        }

        private Marks with(Mark mark, long nanos) {
            long[] next = stamps.clone();
            next[mark.ordinal()] = nanos;
            return new Marks(target, resolvesLocally, request, next, proxyWireNanos);
        }

        /** Whether the request has reached {@code mark}. */
        boolean reached(Mark mark) {
            return at(mark) != UNSET;
        }

        /** Whether the request goes over TLS: an https URL, or a tls outbound's handshake ({@code tls://}). */
        boolean secure() {
            return "https".equalsIgnoreCase(target.getScheme()) || "tls".equalsIgnoreCase(target.getScheme());
        }

        private long at(Mark mark) {
            return stamps[mark.ordinal()];
        }

        private boolean dnsMeasured() {
            return resolvesLocally && reached(Mark.RESOLVE_STARTED);
        }

        /**
         * The request's RTT in nanoseconds, as {@link ProbeResult#rttNanos()} defines it: the sum of the network spans
         * of its {@link #phases()} (name resolution when measured, connect, proxy and TLS handshakes, and the span
         * from the request's first bytes to the response headers), the last one ending at the response's end instead
         * when {@code wholeBody}. The client's own work between the spans (between resolution and connect, and between
         * the connection being ready and the request's first bytes) is not counted.
         *
         * @throws IllegalStateException when the request has not reached that end (the response has not arrived)
         */
        long rttNanos(boolean wholeBody) {
            Mark end = wholeBody ? Mark.RESPONSE_END : Mark.RESPONSE_HEADERS;
            if (!hasRtt(wholeBody)) {
                throw new IllegalStateException("no RTT: the request to " + target + " has not reached " + end);
            }
            return resolution() + untilReady() + at(end) - at(Mark.REQUEST_WRITTEN);
        }

        /** Local name resolution when measured and finished, else 0. */
        private long resolution() {
            return dnsMeasured() && reached(Mark.RESOLVED) ? at(Mark.RESOLVED) - at(Mark.RESOLVE_STARTED) : 0;
        }

        /**
         * From the connect's start until the connection is ready for the request, the proxy handshake counted by its
         * time on the wire when it was measured so: connect, then the handshake's exchanges, then the TLS handshake.
         */
        private long untilReady() {
            if (!reached(Mark.PROXY_HANDSHAKE_DONE) || proxyWireNanos == UNSET) {
                return ready() - at(Mark.CONNECT_STARTED);
            }
            long connect = at(Mark.CONNECTED) - at(Mark.CONNECT_STARTED);
            long tls =
                    reached(Mark.TLS_HANDSHAKE_DONE) ? at(Mark.TLS_HANDSHAKE_DONE) - at(Mark.PROXY_HANDSHAKE_DONE) : 0;
            return connect + proxyWireNanos + tls;
        }

        /**
         * The RTT of a tcp or tls outbound's probe, as {@link ProbeResult#rttNanos()} defines it: name resolution when
         * measured, then from the connect's start until the connection is ready (connected; for tls, handshake done).
         *
         * @throws IllegalStateException when the connection is not ready
         */
        long handshakeRttNanos() {
            if (!reached(Mark.CONNECTED) || (secure() && !reached(Mark.TLS_HANDSHAKE_DONE))) {
                throw new IllegalStateException("no RTT: the handshake with " + target + " is not done");
            }
            return resolution() + untilReady();
        }

        /** Whether the request reached the marks {@link #rttNanos} needs: its first bytes written and its end. */
        boolean hasRtt(boolean wholeBody) {
            return reached(Mark.CONNECT_STARTED)
                    && reached(Mark.CONNECTED)
                    && reached(Mark.REQUEST_WRITTEN)
                    && reached(wholeBody ? Mark.RESPONSE_END : Mark.RESPONSE_HEADERS);
        }

        /** The reading at which the connection became ready for the request: the last handshake's end. */
        private long ready() {
            return reached(Mark.TLS_HANDSHAKE_DONE)
                    ? at(Mark.TLS_HANDSHAKE_DONE)
                    : reached(Mark.PROXY_HANDSHAKE_DONE) ? at(Mark.PROXY_HANDSHAKE_DONE) : at(Mark.CONNECTED);
        }

        /** The phases reached. */
        ProbePhases phases() {
            long connected = at(Mark.CONNECTED);
            long proxyDone = at(Mark.PROXY_HANDSHAKE_DONE);
            long dns = dnsMeasured() ? span(at(Mark.RESOLVE_STARTED), at(Mark.RESOLVED)) : ProbePhases.NOT_MEASURED;
            long tlsFrom = proxyDone != UNSET ? proxyDone : connected;
            return new ProbePhases(
                    dns,
                    span(at(Mark.CONNECT_STARTED), connected),
                    proxyDone != UNSET && proxyWireNanos != UNSET ? proxyWireNanos : span(connected, proxyDone),
                    span(tlsFrom, at(Mark.TLS_HANDSHAKE_DONE)),
                    span(at(Mark.REQUEST_WRITTEN), at(Mark.RESPONSE_HEADERS)));
        }

        private static long span(long from, long to) {
            return from == UNSET || to == UNSET ? ProbePhases.NOT_MEASURED : to - from;
        }
    }
}
