package io.observatory.probe;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.proxy.ProxyHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.observatory.probe.PhaseTimer.Mark;
import java.net.SocketAddress;
import reactor.netty.Connection;

/**
 * Sits at the head of a probe connection's pipeline and stamps the name resolution, connect, proxy handshake and TLS
 * handshake boundaries on the probe's {@link PhaseTimer}.
 */
final class PhaseTimingHandler extends ChannelDuplexHandler {

    private final PhaseTimer timer;

    PhaseTimingHandler(PhaseTimer timer) {
        this.timer = timer;
    }

    /** Stamps the start of name resolution on the timer of the probe that owns {@code connection}, if any. */
    static void resolveStarted(Connection connection) {
        PhaseTimingHandler handler = connection.channel().pipeline().get(PhaseTimingHandler.class);
        if (handler != null) {
            handler.timer.stamp(Mark.RESOLVE_STARTED);
        }
    }

    @Override
    public void connect(
            ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
        timer.stamp(Mark.CONNECT_STARTED);
        ctx.connect(remote, local, promise);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        timer.stamp(Mark.CONNECTED);
        ProxyHandler proxy = ctx.pipeline().get(ProxyHandler.class);
        if (proxy != null) {
            stampOnSuccess(proxy.connectFuture(), Mark.PROXY_HANDSHAKE_DONE);
        }
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls != null) {
            stampOnSuccess(tls.handshakeFuture(), Mark.TLS_HANDSHAKE_DONE);
        }
        ctx.fireChannelActive();
    }

    private void stampOnSuccess(Future<?> handshake, Mark mark) {
        handshake.addListener(done -> {
            if (done.isSuccess()) {
                timer.stamp(mark);
            }
        });
    }
}
