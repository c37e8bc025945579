package io.observatory.probe;

import io.netty.util.NetUtil;
import io.observatory.config.ProbeSettings;
import io.observatory.probe.PhaseTimer.Mark;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.time.Instant;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.LoopResources;

/**
 * The production {@link Prober}: non-blocking HTTP probes on reactor-netty, one fresh connection per probe, directly
 * or through an HTTP CONNECT or SOCKS5 proxy, with the request semantics of Xray's clients
 * ({@link ProbeRequest.Client}: Xray's headers in Go's order, redirects followed only by the connectivity check, any
 * status counts as a response).
 */
public final class ReactorNettyProber implements Prober {

    private final ProbeClients clients;
    private final ProbePermits permits;
    private final Clock clock;
    private final Ticker ticker;

    /**
     * @param settings shared probe settings (in-flight bound, trusted certificates)
     * @param headers the headers of every probe and CONNECT request, {@code observatory.probe.headers} folded in
     * @param loops the event loops that run every probe connection
     * @param clock wall clock for the result's start/end instants
     * @param ticker monotonic clock for RTT and phase timings
     */
    public ReactorNettyProber(ProbeSettings settings, ProbeHeaders headers, LoopResources loops, Clock clock,
            Ticker ticker) {
        this.clients = new ProbeClients(settings, headers, loops);
        this.permits = new ProbePermits(settings.maxConcurrent());
        this.clock = clock;
        this.ticker = ticker;
    }

    @Override
    public Mono<ProbeResult> probe(ProbeRequest request) {
        return permits.withPermit(() -> Mono.defer(() -> send(request)));
    }

    private Mono<ProbeResult> send(ProbeRequest request) {
        String firstHop = request.outbound().proxied() ? request.outbound().address() : request.url().getHost();
        PhaseTimer timer = new PhaseTimer(ticker, !NetUtil.isValidIpV4Address(firstHop)
                && !NetUtil.isValidIpV6Address(firstHop));
        Instant startedAt = clock.instant();
        HttpClient.ResponseReceiver<?> exchange = clients.exchange(request);
        Mono<Integer> status = request.readBody()
                ? exchange.responseConnection((response, connection) -> {
                            timer.stamp(Mark.RESPONSE_HEADERS);
                            checkRedirectLimit(request, response);
                            return connection.inbound().receive().then(Mono.just(response.status().code()));
                        })
                        .next()
                : exchange.response().map((HttpClientResponse response) -> {
                    timer.stamp(Mark.RESPONSE_HEADERS);
                    checkRedirectLimit(request, response);
                    return response.status().code();
                });
        return status
                .timeout(request.timeout())
                .map(code -> new ProbeResult(request.outbound().tag(), true, timer.rttNanos(), timer.phases(),
                        code, startedAt, clock.instant(), null))
                .onErrorResume(error -> Mono.just(new ProbeResult(request.outbound().tag(), false,
                        timer.elapsedNanos(), timer.phases(), 0, startedAt, clock.instant(),
                        ProbeErrorClassifier.classify(request, timer, error))))
                .contextWrite(context -> context.put(PhaseTimer.class, timer).put(ProbeRequest.class, request));
    }

    /**
     * Fails a probe that follows redirects on the redirect response Go's client refuses: the one that would be the
     * {@value ProbeRequest.Client#MAX_REDIRECTS}th redirect.
     */
    private static void checkRedirectLimit(ProbeRequest request, HttpClientResponse response) {
        if (request.client().followsRedirects() && ProbeClients.isRedirect(response)
                && response.redirectedFrom().length >= ProbeRequest.Client.MAX_REDIRECTS - 1) {
            throw new RedirectLimitException();
        }
    }
}
