package io.observatory.probe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;

/**
 * Gives the CONNECT request of Netty's {@link io.netty.handler.proxy.HttpProxyHandler} Xray's headers
 * ({@link ProbeHeaders#writeConnect}; Netty sends only {@code host} and {@code proxy-authorization}), then leaves the
 * pipeline. Sits between the proxy handler and its HTTP codec, where the request passes as a message.
 */
// Netty reports a failed write or close on the channel itself, which this handler's pipeline handles.
@SuppressWarnings("FutureReturnValueIgnored")
final class ConnectHeaders extends ChannelOutboundHandlerAdapter {

    private final ProbeHeaders headers;

    ConnectHeaders(ProbeHeaders headers) {
        this.headers = headers;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf) {
            // Netty placed its codec elsewhere: fail the probe loudly rather than send a CONNECT Xray never sends.
            throw new IllegalStateException("the CONNECT request passed already encoded: this handler must sit"
                    + " between Netty's HttpProxyHandler and its HTTP codec");
        }
        if (msg instanceof HttpRequest request && HttpMethod.CONNECT.equals(request.method())) {
            String authorization = request.headers().get(HttpHeaderNames.PROXY_AUTHORIZATION);
            headers.writeConnect(request.headers(), request.uri(), authorization);
            ctx.write(msg, promise);
            ctx.pipeline().remove(this);
            return;
        }
        ctx.write(msg, promise);
    }
}
