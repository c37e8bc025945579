package io.observatory.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.proxy.HttpProxyHandler.HttpProxyConnectException;
import io.netty.handler.proxy.ProxyConnectException;
import io.observatory.config.Outbound;
import io.observatory.config.Protocol;
import io.observatory.probe.ProbeError.Hop;
import io.observatory.probe.ProbeError.Kind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Exception chains as Netty and reactor-netty raise them, without a network: each row gives the outbound, how far
 * the probe got and what ended it, and the (kind, hop) and reason an operator sees. The same classes meet real
 * sockets and proxies in {@code ReactorNettyProberTest} and {@code HostilePeersProbeTest}.
 */
class ProbeErrorClassifierTest {

    private static final Outbound DIRECT = Outbound.direct("d");
    private static final Outbound SOCKS = new Outbound("s", Protocol.SOCKS, "127.0.0.1", 1080, null, null, null);
    private static final Outbound HTTP = new Outbound("h", Protocol.HTTP, "127.0.0.1", 3128, "u", "p", null);
    private static final String SOCKS_PREFIX = "socks5, none, /127.0.0.1:1080 => probe.test:80, ";
    private static final String HTTP_PREFIX = "http, basic, /127.0.0.1:3128 => probe.test:80, ";

    /** How far a probe got before it ended: every boundary from the connect up to {@code last} was stamped. */
    enum Reached {
        NOTHING(PhaseTimer.Mark.CONNECT_STARTED),
        CONNECTED(PhaseTimer.Mark.CONNECTED),
        PROXY_HANDSHAKE(PhaseTimer.Mark.PROXY_HANDSHAKE_DONE),
        TLS_HANDSHAKE(PhaseTimer.Mark.TLS_HANDSHAKE_DONE),
        RESPONSE_HEADERS(PhaseTimer.Mark.RESPONSE_HEADERS);

        private final PhaseTimer.Mark last;

        Reached(PhaseTimer.Mark last) {
            this.last = last;
        }

        /** The marks of a request to {@code url} that got this far. */
        PhaseTimer.Marks marks(String url) {
            PhaseTimer timer = new PhaseTimer(() -> 0L, URI.create(url), false);
            PhaseTimer.ConnectionStamps connection = timer.connection();
            for (PhaseTimer.Mark mark : PhaseTimer.Mark.values()) {
                if (mark.compareTo(PhaseTimer.Mark.CONNECT_STARTED) >= 0 && mark.compareTo(last) <= 0) {
                    connection.stamp(mark);
                }
            }
            return timer.marks();
        }
    }

    private static ProbeRequest request(Outbound outbound, String url) {
        return new ProbeRequest(
                outbound, URI.create(url), "GET", Duration.ofSeconds(5), ProbeRequest.Client.STANDARD_OBSERVER);
    }

    private static Throwable wrapped(Throwable cause) {
        return new IOException("probe ended", cause);
    }

    static Stream<Arguments> chains() {
        String http = "http://probe.test/";
        String https = "https://probe.test/";
        return Stream.of(
                // The proxy's own verdicts, found below a generic exception.
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new SSLException("closed", new ProxyConnectException(SOCKS_PREFIX + "authStatus: FAILURE(1)")),
                        Kind.PROXY_AUTH_REJECTED,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 rejected the credentials (RFC 1929 status 1)"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new ProxyConnectException(SOCKS_PREFIX + "status: HOST_UNREACHABLE(4)"),
                        Kind.PROXY_REFUSED_TARGET,
                        Hop.TARGET,
                        "proxy 127.0.0.1:1080 did not connect to probe.test:80 (SOCKS5 reply 4 HOST_UNREACHABLE)"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new ProxyConnectException(SOCKS_PREFIX + "unexpected authMethod: UNACCEPTED(255)"),
                        Kind.PROXY_AUTH_REJECTED,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 did not accept no authentication (SOCKS5 method UNACCEPTED)"),
                arguments(
                        HTTP,
                        http,
                        Reached.CONNECTED,
                        wrapped(new HttpProxyConnectException(
                                HTTP_PREFIX + "status: 407 Proxy Authentication Required", EmptyHttpHeaders.INSTANCE)),
                        Kind.PROXY_AUTH_REJECTED,
                        Hop.PROXY,
                        "proxy 127.0.0.1:3128 rejected the credentials (CONNECT status 407)"),
                arguments(
                        HTTP,
                        http,
                        Reached.CONNECTED,
                        new HttpProxyConnectException(
                                HTTP_PREFIX + "status: 502 Bad Gateway", EmptyHttpHeaders.INSTANCE),
                        Kind.PROXY_REFUSED_TARGET,
                        Hop.TARGET,
                        "proxy 127.0.0.1:3128 did not connect to probe.test:80 (CONNECT status 502)"),
                arguments(
                        HTTP,
                        http,
                        Reached.CONNECTED,
                        new HttpProxyConnectException(
                                HTTP_PREFIX + "status: 999 Unknown Status", EmptyHttpHeaders.INSTANCE),
                        Kind.PROTOCOL_ERROR,
                        Hop.PROXY,
                        "proxy 127.0.0.1:3128 sent an invalid HTTP CONNECT reply"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new ProxyConnectException(SOCKS_PREFIX + "timeout"),
                        Kind.CONNECT_TIMEOUT,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 did not complete the handshake within 5s"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new ProxyConnectException(SOCKS_PREFIX + "disconnected"),
                        Kind.CONNECTION_RESET,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 closed the connection during the handshake"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new ProxyConnectException(SOCKS_PREFIX + "bad reply"),
                        Kind.PROTOCOL_ERROR,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 handshake failed"),
                // The probe's own deadline, placed by the phase it struck in.
                arguments(
                        DIRECT,
                        http,
                        Reached.NOTHING,
                        new TimeoutException(),
                        Kind.CONNECT_TIMEOUT,
                        Hop.TARGET,
                        "no connection to probe.test:80 within 5s"),
                arguments(
                        SOCKS,
                        http,
                        Reached.NOTHING,
                        new TimeoutException(),
                        Kind.CONNECT_TIMEOUT,
                        Hop.PROXY,
                        "no connection to 127.0.0.1:1080 within 5s"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new TimeoutException(),
                        Kind.CONNECT_TIMEOUT,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 did not finish the handshake to probe.test:80 within 5s"),
                arguments(
                        DIRECT,
                        https,
                        Reached.CONNECTED,
                        new TimeoutException(),
                        Kind.TLS_HANDSHAKE_FAILURE,
                        Hop.TARGET,
                        "TLS handshake with probe.test:443 did not finish within 5s"),
                arguments(
                        HTTP,
                        https,
                        Reached.TLS_HANDSHAKE,
                        new TimeoutException(),
                        Kind.RESPONSE_TIMEOUT,
                        Hop.TARGET,
                        "no response headers from probe.test:443 within 5s"),
                arguments(
                        DIRECT,
                        http,
                        Reached.RESPONSE_HEADERS,
                        new TimeoutException(),
                        Kind.RESPONSE_TIMEOUT,
                        Hop.TARGET,
                        "response body from probe.test:80 not complete within 5s"),
                // Failures to reach the first hop.
                arguments(
                        DIRECT,
                        http,
                        Reached.NOTHING,
                        wrapped(new UnknownHostException("probe.test")),
                        Kind.DNS_FAILURE,
                        Hop.TARGET,
                        "cannot resolve probe.test:80"),
                arguments(
                        SOCKS,
                        http,
                        Reached.NOTHING,
                        new UnresolvedAddressException(),
                        Kind.DNS_FAILURE,
                        Hop.PROXY,
                        "cannot resolve 127.0.0.1:1080"),
                arguments(
                        SOCKS,
                        http,
                        Reached.NOTHING,
                        new ConnectTimeoutException("connection timed out"),
                        Kind.CONNECT_TIMEOUT,
                        Hop.PROXY,
                        "no connection to 127.0.0.1:1080 within 5s"),
                arguments(
                        SOCKS,
                        http,
                        Reached.NOTHING,
                        wrapped(new ConnectException("Connection refused")),
                        Kind.CONNECTION_REFUSED,
                        Hop.PROXY,
                        "connection refused by 127.0.0.1:1080"),
                arguments(
                        DIRECT,
                        http,
                        Reached.NOTHING,
                        new NoRouteToHostException("No route to host"),
                        Kind.CONNECTION_REFUSED,
                        Hop.TARGET,
                        "connection refused by probe.test:80"),
                // A proxy that breaks its handshake without a verdict.
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new PrematureChannelClosureException("closed"),
                        Kind.CONNECTION_RESET,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 closed the connection during the handshake"),
                arguments(
                        SOCKS,
                        http,
                        Reached.CONNECTED,
                        new DecoderException("unsupported version: 72"),
                        Kind.PROTOCOL_ERROR,
                        Hop.PROXY,
                        "proxy 127.0.0.1:1080 sent an invalid SOCKS5 reply"),
                arguments(
                        HTTP,
                        http,
                        Reached.CONNECTED,
                        new DecoderException("not HTTP"),
                        Kind.PROTOCOL_ERROR,
                        Hop.PROXY,
                        "proxy 127.0.0.1:3128 sent an invalid HTTP CONNECT reply"),
                // The target, through the established path.
                arguments(
                        SOCKS,
                        https,
                        Reached.PROXY_HANDSHAKE,
                        new SSLHandshakeException("PKIX path building failed"),
                        Kind.TLS_HANDSHAKE_FAILURE,
                        Hop.TARGET,
                        "TLS handshake with probe.test:443 failed"),
                arguments(
                        DIRECT,
                        http,
                        Reached.CONNECTED,
                        new IOException("Connection reset by peer"),
                        Kind.CONNECTION_RESET,
                        Hop.TARGET,
                        "connection closed before the response from probe.test:80"),
                arguments(
                        DIRECT,
                        http,
                        Reached.CONNECTED,
                        new IOException("Broken pipe"),
                        Kind.CONNECTION_RESET,
                        Hop.TARGET,
                        "connection closed before the response from probe.test:80"),
                arguments(
                        DIRECT,
                        http,
                        Reached.RESPONSE_HEADERS,
                        PrematureCloseException.TEST_EXCEPTION,
                        Kind.CONNECTION_RESET,
                        Hop.TARGET,
                        "connection closed during the response body from probe.test:80"),
                arguments(
                        DIRECT,
                        http,
                        Reached.CONNECTED,
                        wrapped(new DecoderException("invalid version")),
                        Kind.PROTOCOL_ERROR,
                        Hop.TARGET,
                        "invalid HTTP response from probe.test:80"),
                arguments(
                        DIRECT,
                        http,
                        Reached.CONNECTED,
                        new IllegalArgumentException("invalid header"),
                        Kind.PROTOCOL_ERROR,
                        Hop.TARGET,
                        "invalid HTTP response from probe.test:80"),
                arguments(
                        DIRECT,
                        http,
                        Reached.CONNECTED,
                        new IllegalStateException("boom"),
                        Kind.OTHER,
                        Hop.TARGET,
                        "probe failed"));
    }

    @ParameterizedTest(name = "{0} {1}, reached {2}: {3} -> {4} at {5}")
    @MethodSource("chains")
    void classifyWhenChainThenKindHopAndReasonNamingTheHop(
            Outbound outbound, String url, Reached reached, Throwable error, Kind kind, Hop hop, String summary) {
        ProbeError classified = ProbeErrorClassifier.classify(request(outbound, url), reached.marks(url), error, null);

        assertThat(classified.kind()).isEqualTo(kind);
        assertThat(classified.hop()).isEqualTo(hop);
        assertThat(classified.reason())
                .startsWith("outbound " + outbound.tag() + " (" + outbound.describe() + "): " + summary);
    }

    @Test
    void classifyWhenTheDeadlineStrikesWhileTheHostNameIsResolvedThenADnsFailureNotAConnectTimeout() {
        String url = "http://probe.test/";
        PhaseTimer resolving = new PhaseTimer(() -> 0L, URI.create(url), true);
        resolving.connection().stamp(PhaseTimer.Mark.RESOLVE_STARTED);
        PhaseTimer connecting = new PhaseTimer(() -> 0L, URI.create(url), true);
        PhaseTimer.ConnectionStamps stamps = connecting.connection();
        stamps.stamp(PhaseTimer.Mark.RESOLVE_STARTED);
        stamps.stamp(PhaseTimer.Mark.RESOLVED);
        stamps.stamp(PhaseTimer.Mark.CONNECT_STARTED);

        ProbeError unresolved =
                ProbeErrorClassifier.classify(request(DIRECT, url), resolving.marks(), new TimeoutException(), null);
        ProbeError unconnected =
                ProbeErrorClassifier.classify(request(DIRECT, url), connecting.marks(), new TimeoutException(), null);

        assertThat(unresolved.kind()).isEqualTo(Kind.DNS_FAILURE);
        assertThat(unresolved.hop()).isEqualTo(Hop.TARGET);
        assertThat(unresolved.reason())
                .isEqualTo("outbound d (" + DIRECT.describe() + "): no address for probe.test:80 within 5s");
        assertThat(unconnected.kind()).as("resolved, then the connect hung").isEqualTo(Kind.CONNECT_TIMEOUT);
    }

    @Test
    void classifyWhenProxyRefusesThenReplyCodeKept() {
        ProbeError error = ProbeErrorClassifier.classify(
                request(SOCKS, "http://probe.test/"),
                Reached.CONNECTED.marks("http://probe.test/"),
                new ProxyConnectException(SOCKS_PREFIX + "status: FORBIDDEN(2)"),
                null);

        assertThat(error.proxyReplyCode()).isEqualTo(2);
    }

    @Test
    void reasonWhenChainNestedThenEachCauseOnceAndAtMostSixOfThem() {
        Throwable chain = new ConnectException("refused 7");
        for (int i = 6; i >= 1; i--) {
            chain = new IOException("layer " + i, chain);
        }
        Throwable repeating = new IOException("Connection refused", new ConnectException("Connection refused"));

        String deep = ProbeErrorClassifier.classify(
                        request(DIRECT, "http://probe.test/"), Reached.NOTHING.marks("http://probe.test/"), chain, null)
                .reason();
        String repeated = ProbeErrorClassifier.classify(
                        request(DIRECT, "http://probe.test/"),
                        Reached.NOTHING.marks("http://probe.test/"),
                        repeating,
                        null)
                .reason();

        assertThat(deep)
                .endsWith("; caused by: IOException: layer 1 <- IOException: layer 2 <- IOException: layer 3"
                        + " <- IOException: layer 4 <- IOException: layer 5 <- IOException: layer 6");
        assertThat(repeated).endsWith("; caused by: IOException: Connection refused");
    }

    @Test
    void classifyWhenCausesFormACycleThenEachIsVisitedOnce() {
        IOException outer = new IOException("outer");
        IOException inner = new IOException("inner", outer);
        outer.initCause(inner);

        ProbeError error = ProbeErrorClassifier.classify(
                request(DIRECT, "http://probe.test/"), Reached.CONNECTED.marks("http://probe.test/"), outer, null);

        assertThat(error.kind()).isEqualTo(Kind.OTHER);
        assertThat(error.reason()).endsWith("; caused by: IOException: outer <- IOException: inner");
    }
}
