package io.observatory.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import java.util.Objects;

/**
 * Gives each probe request its final headers just before the HTTP codec encodes it, after reactor-netty added its own
 * ({@code content-length}, {@code connection}, defaults): {@link ProbeHeaders#writeRequest} in Go's order, for the
 * request's own method (a followed redirect may change it). Keeps the {@code Host}, {@code Referer} and
 * {@code Authorization} the exchange set for this hop. Sits right after the codec, on the probe connection only.
 */
final class RequestHeaderOrder extends ChannelOutboundHandlerAdapter {

    private final ProbeHeaders headers;
    private final boolean close;

    /** @param close whether the client announces {@code Connection: close} (see {@link ProbeRequest.Client}) */
    RequestHeaderOrder(ProbeHeaders headers, boolean close) {
        this.headers = headers;
        this.close = close;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpRequest request && !HttpMethod.CONNECT.equals(request.method())) {
            HttpHeaders out = request.headers();
            headers.writeRequest(out, Objects.requireNonNullElse(out.get(HttpHeaderNames.HOST), ""),
                    request.method().name(), close, out.get(HttpHeaderNames.REFERER),
                    out.get(HttpHeaderNames.AUTHORIZATION));
        }
        ctx.write(msg, promise);
    }
}
