package io.observatory.probe;

import com.github.benmanes.caffeine.cache.Cache;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.observatory.config.Outbound;
import io.observatory.config.ProbeSettings;
import io.observatory.config.Protocol;
import io.observatory.time.Ticker;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpClient;

/**
 * The probes of {@code tcp} and {@code tls} outbounds: a fresh TCP connection to the outbound's address, and for
 * {@code tls} a TLS handshake on it with the outbound's server name and ALPN protocols, the certificate verified
 * against the probes' trust (the JDK's and {@code observatory.probe.trusted-certificates}) and the server name unless
 * the outbound allows any certificate. The connection is closed as soon as the handshake is done; nothing is sent on
 * it. Phases are stamped by {@link PhaseTimingHandler}, as for HTTP probes, so a deadline or a failure is classified by
 * the phase it struck in.
 *
 * <p>One TLS context per (ALPN protocols, verification) in use, kept while used within {@link ProbeClients#IDLE}: a few
 * KB each, shared by every outbound that offers the same protocols: 10,000 tls outbounds cost no more than the handful
 * of contexts their settings make, and nothing per outbound between probes.
 */
final class HandshakeProbes {

    private final TcpClient base;
    private final TrustManagerFactory trust;
    private final Cache<ContextKey, SslContext> contexts;

    /**
     * @param trust  the certificates a verified handshake trusts, the HTTPS probes' own
     * @param ticker the monotonic clock of the contexts' idle expiry
     */
    HandshakeProbes(ProbeSettings settings, TrustManagerFactory trust, LoopResources loops, Ticker ticker) {
        this.trust = trust;
        this.contexts = ProbeClients.idleExpiring(ticker);
        InetSocketAddress source = settings.sourceSocketAddress();
        TcpClient client = TcpClient.create(ConnectionProvider.newConnection());
        this.base = (source == null ? client : client.bindAddress(() -> source))
                .runOn(loops)
                .doOnResolve(PhaseTimingHandler::resolveStarted)
                .doAfterResolve(PhaseTimingHandler::resolved);
    }

    /**
     * Connects to {@code request}'s outbound and, for {@code tls}, completes the handshake; the probe's
     * {@link PhaseTimer} must be in the subscriber context. Errors with what failed (the connect, the handshake); the
     * caller bounds the whole by the request's timeout.
     *
     * @return the server certificate's expiry for {@code tls} (also when it is not verified), {@code null} for
     *     {@code tcp}
     */
    Mono<Handshake> handshake(ProbeRequest request) {
        Outbound outbound = request.outbound();
        boolean tls = outbound.protocol() == Protocol.TLS;
        int connectMillis =
                (int) Math.min(Integer.MAX_VALUE, request.connectTimeout().toMillis());
        String address = Objects.requireNonNull(outbound.address(), "a tcp or tls outbound has an address");
        int port = Objects.requireNonNull(outbound.port(), "a tcp or tls outbound has a port");
        TcpClient client = base.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis)
                .remoteAddress(() -> InetSocketAddress.createUnresolved(address, port))
                .doOnChannelInit((observer, channel, remote) -> {
                    PhaseTimer timer = observer.currentContext().get(PhaseTimer.class);
                    if (tls) {
                        channel.pipeline().addFirst(tlsHandler(outbound, channel.alloc(), connectMillis));
                    }
                    channel.pipeline().addFirst(new PhaseTimingHandler(timer.connection()));
                });
        return client.connect().flatMap(connection -> finish(connection).doFinally(signal -> connection.dispose()));
    }

    /** What the handshake tells: the certificate's expiry for {@code tls}. */
    record Handshake(@Nullable Instant certificateNotAfter) {}

    private static Mono<Handshake> finish(Connection connection) {
        SslHandler tls = connection.channel().pipeline().get(SslHandler.class);
        if (tls == null) {
            return Mono.just(new Handshake(null));
        }
        return Mono.create(sink -> tls.handshakeFuture().addListener(done -> {
            if (done.isSuccess()) {
                sink.success(new Handshake(notAfter(tls.engine())));
            } else {
                sink.error(done.cause());
            }
        }));
    }

    private static @Nullable Instant notAfter(SSLEngine engine) {
        try {
            Certificate[] chain = engine.getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate leaf
                    ? leaf.getNotAfter().toInstant()
                    : null;
        } catch (SSLPeerUnverifiedException e) {
            // A completed handshake without a certificate (an anonymous or PSK suite): there is no expiry to show.
            return null;
        }
    }

    /**
     * The handshake's handler: the outbound's server name as SNI (none for an IP address) and as the name the
     * certificate must match ({@code HTTPS} endpoint identification, RFC 2818), unless it allows any certificate.
     */
    private SslHandler tlsHandler(Outbound outbound, ByteBufAllocator alloc, int handshakeMillis) {
        String serverName = outbound.serverName();
        String peer = serverName != null ? serverName : Objects.requireNonNull(outbound.address(), "address");
        SslContext context = contexts.get(new ContextKey(outbound.alpn(), outbound.allowInsecure()), this::context);
        SslHandler handler = context.newHandler(alloc, peer, Objects.requireNonNull(outbound.port(), "port"));
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        if (!outbound.allowInsecure()) {
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
        }
        engine.setSSLParameters(parameters);
        handler.setHandshakeTimeoutMillis(handshakeMillis);
        return handler;
    }

    private SslContext context(ContextKey key) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .trustManager(key.allowInsecure() ? InsecureTrustManagerFactory.INSTANCE : trust);
        if (!key.alpn().isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(
                    ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                    key.alpn()));
        }
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build the TLS context of the tls probes: " + e.getMessage(), e);
        }
    }

    private record ContextKey(List<String> alpn, boolean allowInsecure) {}
}
