package io.observatory.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.proxy.ProxyHandler;
import io.netty.handler.ssl.SslHandler;
import io.observatory.probe.PhaseTimer.Mark;
import java.net.SocketAddress;
import reactor.netty.Connection;

/**
 * Sits at the head of a probe connection's pipeline, next to the socket, and stamps on the probe's
 * {@link PhaseTimer} the boundaries that are socket events: name resolution, the TCP connect handed to the socket and
 * reported established, the TLS handshake's end and the first bytes of the request handed to the socket; it also
 * tells the timer when each inbound read begins, so that {@link ReplyTimingHandler} can stamp a reply at the read
 * that brought it rather than after it was decoded.
 *
 * <p>Each stamp is taken before anything else reacts to the event: the connection as the connect promise's first
 * listener (Netty notifies it before {@code channelActive} and before reactor-netty's listener), the TLS handshake
 * as {@link SslHandler} completes its promise (before it fires the event that makes reactor-netty send the request).
 * The client's own work after the connection is ready (reactor-netty binding the exchange, building and encoding
 * the request) lies between the ready boundary and the request's first bytes, so it is in no phase.
 */
// Netty reports a failed write or close on the channel itself, which this handler's pipeline handles.
@SuppressWarnings("FutureReturnValueIgnored")
final class PhaseTimingHandler extends ChannelDuplexHandler {

    private final PhaseTimer.ConnectionStamps timer;
    // Event-loop confined, like the handler: which handshakes precede the request, read at connect.
    private boolean proxied;
    private boolean secure;
    // Event-loop confined: whether the request's first bytes have been stamped.
    private boolean requestWritten;

    PhaseTimingHandler(PhaseTimer.ConnectionStamps timer) {
        this.timer = timer;
    }

    /** Stamps the start of name resolution on the timer of the probe that owns {@code connection}, if any. */
    static void resolveStarted(Connection connection) {
        stamp(connection, Mark.RESOLVE_STARTED);
    }

    /**
     * Stamps the end of name resolution on the timer of the probe that owns {@code connection}, if any; reactor-netty
     * calls it from the resolution's listener, on the event loop, as the answer arrives.
     */
    static void resolved(Connection connection, SocketAddress address) {
        stamp(connection, Mark.RESOLVED);
    }

    private static void stamp(Connection connection, Mark mark) {
        PhaseTimingHandler handler = connection.channel().pipeline().get(PhaseTimingHandler.class);
        if (handler != null) {
            handler.timer.stamp(mark);
        }
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
        proxied = ctx.pipeline().get(ProxyHandler.class) != null;
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        secure = tls != null;
        if (tls != null) {
            tls.handshakeFuture().addListener(done -> {
                if (done.isSuccess()) {
                    timer.stamp(Mark.TLS_HANDSHAKE_DONE);
                }
            });
        }
        ChannelPromise connected = promise.unvoid();
        connected.addListener(done -> {
            if (done.isSuccess()) {
                timer.stamp(Mark.CONNECTED);
            }
        });
        timer.stampFirst(Mark.CONNECT_STARTED);
        ctx.connect(remote, local, connected);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (!requestWritten && message instanceof ByteBuf) {
            PhaseTimer.Marks marks = timer.marks();
            if (ready(marks)) {
                requestWritten = true;
                timer.stamp(Mark.REQUEST_WRITTEN);
            } else if (proxied && marks.reached(Mark.CONNECTED) && !marks.reached(Mark.PROXY_HANDSHAKE_DONE)) {
                timer.handshakeWritten();
            }
        }
        ctx.write(message, promise);
    }

    /** Whether every handshake before the request is done, so the next bytes written are the request's. */
    private boolean ready(PhaseTimer.Marks marks) {
        return marks.reached(Mark.CONNECTED)
                && (!proxied || marks.reached(Mark.PROXY_HANDSHAKE_DONE))
                && (!secure || marks.reached(Mark.TLS_HANDSHAKE_DONE));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        timer.readStarted();
        ctx.fireChannelRead(message);
    }
}
