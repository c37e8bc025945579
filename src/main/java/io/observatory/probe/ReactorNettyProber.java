package io.observatory.probe;

import io.netty.util.NetUtil;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.time.Ticker;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * The production {@link Prober}: non-blocking HTTP probes on reactor-netty, one fresh connection per probe, directly
 * or through an HTTP CONNECT or SOCKS5 proxy, with the request semantics of Xray's clients
 * ({@link ProbeRequest.Client}: Xray's headers in Go's order, redirects followed only by the connectivity check, any
 * status counts as a response); and the handshake probes of {@code tcp} and {@code tls} outbounds
 * ({@link HandshakeProbes}).
 */
public final class ReactorNettyProber implements Prober {

    private final ProbeClients clients;
    private final HandshakeProbes handshakes;
    private final ProbeHeaders headers;
    private final ProbePermits permits;
    private final Clock clock;
    private final Ticker ticker;
    private final @Nullable InetAddress source;

    /**
     * @param settings shared probe settings (in-flight bound, trusted certificates)
     * @param headers the headers of every probe and CONNECT request, {@code observatory.probe.headers} folded in
     * @param loops the event loops that run every probe connection
     * @param clock wall clock for the result's start/end instants
     * @param ticker monotonic clock for RTT and phase timings
     */
    public ReactorNettyProber(
            ProbeSettings settings, ProbeHeaders headers, LoopResources loops, Clock clock, Ticker ticker) {
        // Read once: the PEM file of observatory.probe.trusted-certificates serves HTTPS and tls probes alike.
        TrustManagerFactory trust = TrustedCertificates.withExtra(settings.trustedCertificatesPath());
        this.clients = new ProbeClients(settings, trust, headers, loops, ticker);
        this.handshakes = new HandshakeProbes(settings, trust, loops, ticker);
        this.headers = headers;
        this.permits = new ProbePermits(settings.maxConcurrent());
        this.clock = clock;
        this.ticker = ticker;
        InetSocketAddress bound = settings.sourceSocketAddress();
        this.source = bound == null ? null : bound.getAddress();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Always completes with exactly one result: a failure inside the prober itself (before or after the
     * exchange) is a failed probe classified like any other error, so an observer waiting for the result never waits
     * forever.
     */
    @Override
    public Mono<ProbeResult> probe(ProbeRequest request) {
        return permits.withPermit(() -> Mono.defer(() -> send(request)))
                .switchIfEmpty(Mono.defer(() ->
                        Mono.just(failed(request, new IllegalStateException("the probe ended without a result")))))
                .onErrorResume(error -> Mono.just(failed(request, error)));
    }

    /** A failed probe of {@code request} for an error outside the exchange, with no phase reached. */
    private ProbeResult failed(ProbeRequest request, Throwable error) {
        Instant now = clock.instant();
        PhaseTimer.Marks none = new PhaseTimer(ticker, request.url(), false).marks();
        return new ProbeResult(
                request.outbound().tag(),
                false,
                0,
                none.phases(),
                0,
                now,
                now,
                ProbeErrorClassifier.classify(request, none, error, source));
    }

    private Mono<ProbeResult> send(ProbeRequest request) {
        if (request.outbound().protocol() == Protocol.XRAY) {
            Instant now = clock.instant();
            return Mono.just(new ProbeResult(
                    request.outbound().tag(),
                    false,
                    0,
                    ProbePhases.NONE,
                    0,
                    now,
                    now,
                    new ProbeError(
                            ProbeError.Kind.OTHER,
                            ProbeError.Hop.PROXY,
                            "outbound " + request.outbound().tag() + " (xray outbound): an Xray outbound object is"
                                    + " probed only through a proxy core (observatory.core.binary)",
                            null)));
        }
        return request.outbound().protocol().handshakeOnly() ? sendHandshake(request) : sendRequest(request);
    }

    /** The probe of a tcp or tls outbound: the connect, and the TLS handshake for tls. */
    private Mono<ProbeResult> sendHandshake(ProbeRequest request) {
        String address = Objects.requireNonNullElse(request.outbound().address(), "");
        boolean resolvesLocally = !NetUtil.isValidIpV4Address(address) && !NetUtil.isValidIpV6Address(address);
        PhaseTimer timer = new PhaseTimer(ticker, request.url(), resolvesLocally);
        Instant startedAt = clock.instant();
        return handshakes
                .handshake(request)
                .timeout(request.timeout())
                .map(handshake -> new ProbeResult(
                        request.outbound().tag(),
                        true,
                        timer.marks().handshakeRttNanos(),
                        timer.marks().phases(),
                        0,
                        startedAt,
                        clock.instant(),
                        null,
                        handshake.certificateNotAfter()))
                .onErrorResume(error -> Mono.just(failed(request, timer, startedAt, error)))
                .contextWrite(context -> context.put(PhaseTimer.class, timer).put(ProbeRequest.class, request));
    }

    /** A failed probe of {@code request}: its phases so far, the error classified by where it struck. */
    private ProbeResult failed(ProbeRequest request, PhaseTimer timer, Instant startedAt, Throwable error) {
        PhaseTimer.Marks marks = timer.marks();
        return new ProbeResult(
                request.outbound().tag(),
                false,
                timer.elapsedNanos(),
                marks.phases(),
                0,
                startedAt,
                clock.instant(),
                ProbeErrorClassifier.classify(request, marks, error, source));
    }

    /** The probe of a direct, http or socks outbound: the probe URL's request and response. */
    private Mono<ProbeResult> sendRequest(ProbeRequest request) {
        ProbeHop first = ProbeHop.first(request, headers);
        PhaseTimer timer = new PhaseTimer(ticker, first.url(), resolvesLocally(request, first));
        Instant startedAt = clock.instant();
        return answer(request, first, timer)
                .timeout(request.timeout())
                .map(answer -> {
                    PhaseTimer.Marks marks = timer.marks();
                    long rtt =
                            marks.hasRtt(answer.bodyRead()) ? marks.rttNanos(answer.bodyRead()) : timer.elapsedNanos();
                    return new ProbeResult(
                            request.outbound().tag(),
                            true,
                            rtt,
                            marks.phases(),
                            answer.status(),
                            startedAt,
                            clock.instant(),
                            null);
                })
                .onErrorResume(error -> Mono.just(failed(request, timer, startedAt, error)))
                .contextWrite(context -> context.put(PhaseTimer.class, timer).put(ProbeRequest.class, request));
    }

    /** Whether the first hop of {@code hop} (its proxy, else its host) is a name resolved here. */
    private static boolean resolvesLocally(ProbeRequest request, ProbeHop hop) {
        String firstHop = request.outbound().proxied()
                ? request.outbound().address()
                : hop.url().getHost();
        return !NetUtil.isValidIpV4Address(firstHop) && !NetUtil.isValidIpV6Address(firstHop);
    }

    /**
     * The response that answers {@code request}, from {@code hop} on: a client that follows redirects sends the next
     * hop as Go's client does and fails on the redirect response that would be the
     * {@value ProbeRequest.Client#MAX_REDIRECTS}th redirect ("stopped after 10 redirects").
     */
    private Mono<Answer> answer(ProbeRequest request, ProbeHop hop, PhaseTimer timer) {
        boolean follows = request.client().followsRedirects();
        return clients.exchange(request, hop)
                .responseConnection((response, connection) -> {
                    int code = response.status().code();
                    String location = follows ? ProbeHop.redirectLocation(response) : null;
                    if (location != null) {
                        return hop.redirects() + 1 >= ProbeRequest.Client.MAX_REDIRECTS
                                ? Mono.error(new RedirectLimitException())
                                : Mono.just(new Answer(code, false, hop.redirectTo(location, code)));
                    }
                    boolean readsBody = request.client().readsBody(hop.method());
                    Mono<Void> body = readsBody ? connection.inbound().receive().then() : Mono.empty();
                    return body.then(Mono.just(new Answer(code, readsBody, null)));
                })
                .next()
                .contextWrite(context -> context.put(ProbeHop.class, hop))
                .flatMap(answer -> {
                    ProbeHop next = answer.next();
                    if (next == null) {
                        return Mono.just(answer);
                    }
                    timer.nextRequest(next.url(), resolvesLocally(request, next));
                    return answer(request, next, timer);
                });
    }

    /**
     * A response: its status, whether its whole body was read (then the RTT ends with the body), and the next
     * request when it is a redirect to follow.
     */
    private record Answer(
            int status, boolean bodyRead, @Nullable ProbeHop next) {}
}
