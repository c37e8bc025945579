package io.observatory.probe;

import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.resolver.NoopAddressResolverGroup;
import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.TrustManagerFactory;
import reactor.netty.NettyPipeline;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.transport.ProxyProvider;

/**
 * Builds and caches one immutable reactor-netty {@link HttpClient} per (outbound, scheme, timeout, redirect rule), all
 * sharing one event loop group, one TLS trust configuration and a connection provider that opens a fresh connection
 * per request and never pools, and sends each probe with {@link ProbeHeaders} in Go's order. Building a client is
 * cheap but not free; probing 10,000 outbounds every few seconds should not rebuild them.
 */
final class ProbeClients {

    /** The statuses Go's client follows. */
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final HttpClient base;
    private final Http11SslContextSpec tls;
    private final ProbeHeaders headers;
    private final Map<Key, HttpClient> clients = new ConcurrentHashMap<>();

    ProbeClients(ProbeSettings settings, ProbeHeaders headers, LoopResources loops) {
        TrustManagerFactory trust = TrustedCertificates.withExtra(settings.trustedCertificatesPath());
        this.tls = Http11SslContextSpec.forClient().configure(builder -> builder.trustManager(trust));
        this.headers = headers;
        this.base = HttpClient.create(ConnectionProvider.newConnection())
                .runOn(loops)
                .keepAlive(false)
                .compress(false)
                .doOnResolve(PhaseTimingHandler::resolveStarted)
                .doOnChannelInit((observer, channel, remote) -> {
                    if (channel.pipeline().get(HttpProxyHandler.class) != null) {
                        channel.pipeline().addBefore(NettyPipeline.ProxyHandler, null, new ConnectHeaders(headers));
                    }
                    PhaseTimer timer = observer.currentContext().getOrDefault(PhaseTimer.class, null);
                    if (timer != null) {
                        channel.pipeline().addFirst(new PhaseTimingHandler(timer));
                    }
                });
    }

    /**
     * The exchange of {@code request}, not yet sent: its method and URL on the client for its outbound, scheme,
     * deadline and redirect rule, with the probe headers.
     */
    HttpClient.ResponseReceiver<?> exchange(ProbeRequest request) {
        return clients.computeIfAbsent(new Key(request.outbound(), request.secure(), request.timeout(),
                        request.client().followsRedirects()), this::build)
                .request(HttpMethod.valueOf(request.method()))
                .uri(request.url())
                .send((outgoing, body) -> {
                    String authority = outgoing.redirectedFrom().length == 0 ? request.authority()
                            : outgoing.requestHeaders().get(HttpHeaderNames.HOST);
                    headers.writeRequest(outgoing.requestHeaders(), authority, request.method(),
                            request.client().announcesClose());
                    return body;
                });
    }

    private HttpClient build(Key key) {
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, key.timeout().toMillis());
        HttpClient client = base.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMillis)
                .followRedirect(key.followRedirects()
                        ? (outgoing, response) -> REDIRECTS.contains(response.status().code())
                                && outgoing.redirectedFrom().length < ProbeRequest.Client.MAX_REDIRECTS
                        : (outgoing, response) -> false);
        if (key.secure()) {
            client = client.secure(spec -> spec.sslContext(tls).handshakeTimeout(key.timeout()));
        }
        Outbound outbound = key.outbound();
        if (!outbound.proxied()) {
            return client;
        }
        ProxyProvider.Proxy type = switch (outbound.protocol()) {
            case HTTP -> ProxyProvider.Proxy.HTTP;
            case SOCKS -> ProxyProvider.Proxy.SOCKS5;
            case DIRECT -> throw new IllegalStateException("direct outbound has no proxy");
        };
        // With custom loop resources reactor-netty resolves the target locally even behind a proxy; the no-op
        // resolver keeps the probe URL's host name unresolved so the proxy resolves it (as Xray's outbounds do).
        return client.resolver(NoopAddressResolverGroup.INSTANCE).proxy(spec -> {
            ProxyProvider.Builder proxy = spec.type(type)
                    .host(outbound.address())
                    .port(outbound.port())
                    .connectTimeoutMillis(timeoutMillis);
            if (outbound.authenticated()) {
                proxy.username(outbound.username()).password(user -> outbound.password());
            }
        });
    }

    private record Key(Outbound outbound, boolean secure, Duration timeout, boolean followRedirects) {}
}
