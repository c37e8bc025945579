package io.observatory.probe;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.proxy.HttpProxyHandler;
import io.netty.resolver.NoopAddressResolverGroup;
import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.time.Ticker;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.TrustManagerFactory;
import reactor.netty.NettyPipeline;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.transport.ProxyProvider;

/**
 * Builds and caches one immutable reactor-netty {@link HttpClient} per (outbound, scheme, connect deadline), all
 * sharing one event loop group, one TLS trust configuration and a connection provider that opens a fresh connection
 * per request and never pools, and sends each probe with {@link ProbeHeaders} in Go's order. Building a client is
 * cheap but not free; probing 10,000 outbounds every few seconds should not rebuild them. The exchange of a probe's
 * first request (client, method and probe URL) is cached too: binding a method and a URL copies the client's whole
 * configuration twice, which every probe would otherwise repeat.
 *
 * <p>Both cost about 1.4 KB per outbound (measured: 13.4 MB for 10,000 SOCKS5 outbounds). An entry not used for
 * {@link #IDLE} is dropped, so outbounds that are gone (removed by a reload, a rotated proxy password, a mesh fleet
 * that changed) do not hold theirs forever; one probed less often than that builds its client again, for a few
 * microseconds.
 */
final class ProbeClients {

    /** How long a client or a bound first request stays cached without being used. */
    static final Duration IDLE = Duration.ofMinutes(10);

    private final HttpClient base;
    private final Http11SslContextSpec tls;
    private final Cache<Key, HttpClient> clients;
    private final Cache<FirstRequest, HttpClient.ResponseReceiver<?>> firstRequests;

    /**
     * @param trust  the certificates HTTPS probes trust (the JDK's and {@code observatory.probe.trusted-certificates})
     * @param ticker the monotonic clock of {@link #IDLE}
     */
    ProbeClients(
            ProbeSettings settings,
            TrustManagerFactory trust,
            ProbeHeaders headers,
            LoopResources loops,
            Ticker ticker) {
        this.clients = idleExpiring(ticker);
        this.firstRequests = idleExpiring(ticker);
        this.tls = Http11SslContextSpec.forClient().configure(builder -> builder.trustManager(trust));
        InetSocketAddress source = settings.sourceSocketAddress();
        HttpClient client = HttpClient.create(ConnectionProvider.newConnection());
        this.base = (source == null ? client : client.bindAddress(() -> source))
                .runOn(loops)
                .keepAlive(false)
                .compress(false)
                // Go's client never sends a request again on a fresh connection; reactor-netty would after a reset.
                .disableRetry(true)
                .doOnResolve(PhaseTimingHandler::resolveStarted)
                .doAfterResolve(PhaseTimingHandler::resolved)
                .doOnChannelInit((observer, channel, remote) -> {
                    ProbeRequest request = observer.currentContext().get(ProbeRequest.class);
                    PhaseTimer.ConnectionStamps stamps =
                            observer.currentContext().get(PhaseTimer.class).connection();
                    ChannelPipeline pipeline = channel.pipeline();
                    pipeline.addAfter(NettyPipeline.HttpCodec, null, new ReplyTimingHandler(stamps));
                    pipeline.addAfter(
                            NettyPipeline.HttpCodec,
                            null,
                            new RequestHeaderOrder(
                                    headers,
                                    observer.currentContext().get(ProbeHop.class),
                                    request.client().announcesClose()));
                    if (request.outbound().protocol() == Protocol.HTTP) {
                        if (pipeline.get(HttpProxyHandler.class) == null) {
                            throw new IllegalStateException("no HTTP proxy handler in the pipeline of outbound "
                                    + request.outbound().tag() + " to give the CONNECT request its headers");
                        }
                        pipeline.addBefore(NettyPipeline.ProxyHandler, null, new ConnectHeaders(headers));
                    }
                    pipeline.addFirst(new PhaseTimingHandler(stamps));
                });
    }

    /**
     * The exchange of one request of {@code request}, not yet sent: the hop's method and URL on the client for the
     * outbound, the hop's scheme and the deadline. Its connection needs {@code request}, the hop and the probe's
     * {@link PhaseTimer} in the subscriber context; {@link RequestHeaderOrder} gives it its headers. Redirects are
     * not followed here (the prober follows them hop by hop, as Go's client does).
     */
    HttpClient.ResponseReceiver<?> exchange(ProbeRequest request, ProbeHop hop) {
        Key key = new Key(request.outbound(), hop.secure(), request.connectTimeout());
        if (hop.redirects() > 0) {
            // A redirect's URL comes from the server: bound per request, never cached.
            return bind(key, hop.method(), hop.url());
        }
        return firstRequests.get(
                new FirstRequest(key, hop.method(), hop.url()),
                first -> bind(first.client(), first.method(), first.url()));
    }

    /** How many clients and bound first requests are cached, once those idle for {@link #IDLE} are dropped. */
    long size() {
        firstRequests.cleanUp();
        clients.cleanUp();
        return clients.estimatedSize() + firstRequests.estimatedSize();
    }

    private HttpClient.ResponseReceiver<?> bind(Key key, String method, URI url) {
        return clients.get(key, this::build).request(HttpMethod.valueOf(method)).uri(url);
    }

    /**
     * A cache whose entries go after {@link #IDLE} without use; expiry work runs on the caller's thread (an event loop
     * or the writer), a few entries per access.
     */
    static <K, V> Cache<K, V> idleExpiring(Ticker ticker) {
        return Caffeine.newBuilder()
                .expireAfterAccess(IDLE)
                .ticker(ticker::nanoTime)
                .executor(Runnable::run)
                .build();
    }

    private HttpClient build(Key key) {
        int timeoutMillis =
                (int) Math.min(Integer.MAX_VALUE, key.connectTimeout().toMillis());
        HttpClient client = base.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMillis);
        if (key.secure()) {
            client = client.secure(spec -> spec.sslContext(tls).handshakeTimeout(key.connectTimeout()));
        }
        Outbound outbound = key.outbound();
        if (!outbound.proxied()) {
            return client;
        }
        ProxyProvider.Proxy type = switch (outbound.protocol()) {
            case HTTP -> ProxyProvider.Proxy.HTTP;
            case SOCKS -> ProxyProvider.Proxy.SOCKS5;
            case DIRECT, TCP, TLS, XRAY ->
                throw new IllegalStateException(outbound.protocol() + " outbound has no proxy");
        };
        // With custom loop resources reactor-netty resolves the target locally even behind a proxy; the no-op
        // resolver keeps the probe URL's host name unresolved so the proxy resolves it (as Xray's outbounds do).
        return client.resolver(NoopAddressResolverGroup.INSTANCE).proxy(spec -> {
            ProxyProvider.Builder proxy = spec.type(type)
                    .host(Objects.requireNonNull(outbound.address(), "a proxied outbound has an address"))
                    .port(Objects.requireNonNull(outbound.port(), "a proxied outbound has a port"))
                    .connectTimeoutMillis(timeoutMillis);
            if (outbound.authenticated()) {
                proxy.username(Objects.requireNonNull(outbound.username(), "authenticated"))
                        .password(user -> outbound.password());
            }
        });
    }

    /** @param connectTimeout the deadline of the connect, of the proxy handshake and of the TLS handshake, each */
    private record Key(Outbound outbound, boolean secure, Duration connectTimeout) {}

    /** A probe's first request: the client for it, its method and the probe URL. */
    private record FirstRequest(Key client, String method, URI url) {}
}
