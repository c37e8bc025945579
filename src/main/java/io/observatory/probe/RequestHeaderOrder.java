package io.observatory.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;

/**
 * Gives the request of one probe connection its final headers just before the HTTP codec encodes it, after
 * reactor-netty added its own ({@code content-length}, {@code connection}, defaults): {@link ProbeHeaders#writeRequest}
 * for the connection's {@link ProbeHop}, in Go's order. Sits right after the codec; a probe speaks HTTP/1.1 only, so
 * the codec is always there when the connection is set up.
 */
// Netty reports a failed write or close on the channel itself, which this handler's pipeline handles.
@SuppressWarnings("FutureReturnValueIgnored")
final class RequestHeaderOrder extends ChannelOutboundHandlerAdapter {

    private final ProbeHeaders headers;
    private final ProbeHop hop;
    private final boolean close;

    /** @param close whether the client announces {@code Connection: close} (see {@link ProbeRequest.Client}) */
    RequestHeaderOrder(ProbeHeaders headers, ProbeHop hop, boolean close) {
        this.headers = headers;
        this.hop = hop;
        this.close = close;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpRequest request) {
            headers.writeRequest(request.headers(), hop, close);
        }
        ctx.write(msg, promise);
    }
}
