package io.observatory.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.proxy.ProxyConnectionEvent;
import io.observatory.probe.PhaseTimer.Mark;

/**
 * Sits right after a probe connection's HTTP codec and stamps, on the probe's {@link PhaseTimer}, when the replies
 * arrived: the proxy's last handshake reply (Netty's {@link ProxyConnectionEvent}, fired while that reply is read and
 * before the request buffered behind the handshake is written), the response headers and the response's end. Each is
 * stamped at the start of the inbound read that brought its last bytes
 * ({@link PhaseTimer.ConnectionStamps#stampAtRead}, which {@link PhaseTimingHandler} begins at the socket), so decoding
 * is not counted. The response headers are those of
 * the response the probe reports: a {@code 100 Continue} is skipped, as reactor-netty skips it.
 */
final class ReplyTimingHandler extends ChannelInboundHandlerAdapter {

    private final PhaseTimer.ConnectionStamps timer;
    // Event-loop confined, like the handler: whether the reported response's headers have arrived.
    private boolean answered;

    ReplyTimingHandler(PhaseTimer.ConnectionStamps timer) {
        this.timer = timer;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof ProxyConnectionEvent) {
            timer.stampAtRead(Mark.PROXY_HANDSHAKE_DONE);
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (!answered
                && message instanceof HttpResponse response
                && response.decoderResult().isSuccess()
                && !HttpResponseStatus.CONTINUE.equals(response.status())) {
            answered = true;
            timer.stampAtRead(Mark.RESPONSE_HEADERS);
        }
        if (answered && message instanceof LastHttpContent) {
            timer.stampAtRead(Mark.RESPONSE_END);
        }
        ctx.fireChannelRead(message);
    }
}
