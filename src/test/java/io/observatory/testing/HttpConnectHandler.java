package io.observatory.testing;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.Future;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of one HTTP proxy connection that accepts only {@code CONNECT host:port} (RFC 9110 section 9.3.6),
 * optionally behind Basic authentication; a successful CONNECT turns the connection into a {@link Relay} tunnel.
 *
 * <p>Every error response carries {@code Connection: close} and is followed by a close. Bytes a client sends before
 * the {@code 200} are not expected (clients wait for it) and are not relayed.
 */
final class HttpConnectHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String CODEC = "http-codec";
    static final String AGGREGATOR = "http-aggregator";

    private static final Logger log = LoggerFactory.getLogger(HttpConnectHandler.class);
    private static final HttpResponseStatus CONNECTION_ESTABLISHED =
            new HttpResponseStatus(200, "Connection established");

    private final Credentials credentials; // null: the proxy requires no authentication
    private final Consumer<RequestedDestination> requests;

    HttpConnectHandler(Credentials credentials, Consumer<RequestedDestination> requests) {
        this.credentials = credentials;
        this.requests = requests;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            log.debug(
                    "{}: malformed HTTP request",
                    ctx.channel(),
                    request.decoderResult().cause());
            respondAndClose(ctx, errorResponse(HttpResponseStatus.BAD_REQUEST));
            return;
        }
        if (!HttpMethod.CONNECT.equals(request.method())) {
            FullHttpResponse response = errorResponse(HttpResponseStatus.METHOD_NOT_ALLOWED);
            response.headers().set(HttpHeaderNames.ALLOW, HttpMethod.CONNECT.name());
            respondAndClose(ctx, response);
            return;
        }
        RequestedDestination destination;
        try {
            destination = RequestedDestination.ofAuthority(request.uri());
        } catch (IllegalArgumentException e) {
            log.debug("{}: bad CONNECT target", ctx.channel(), e);
            respondAndClose(ctx, errorResponse(HttpResponseStatus.BAD_REQUEST));
            return;
        }
        requests.accept(destination);
        if (credentials != null
                && !credentials.matchesBasic(request.headers().get(HttpHeaderNames.PROXY_AUTHORIZATION))) {
            log.debug("{}: missing or wrong proxy credentials", ctx.channel());
            FullHttpResponse response = errorResponse(HttpResponseStatus.PROXY_AUTHENTICATION_REQUIRED);
            response.headers().set(HttpHeaderNames.PROXY_AUTHENTICATE, "Basic realm=\"test\"");
            respondAndClose(ctx, response);
            return;
        }
        ctx.channel().config().setAutoRead(false);
        TargetDialer.dial(ctx.channel(), destination.host(), destination.port())
                .addListener((Future<Channel> dialed) -> {
                    if (dialed.isSuccess()) {
                        openTunnel(ctx, dialed.getNow());
                    } else {
                        log.debug("{}: cannot reach {}", ctx.channel(), destination, dialed.cause());
                        respondAndClose(ctx, errorResponse(statusFor(TargetDialer.Failure.of(dialed.cause()))));
                    }
                });
    }

    private void openTunnel(ChannelHandlerContext ctx, Channel target) {
        // No Content-Length: a 2xx answer to CONNECT has no body and must not announce one (RFC 9110 section 9.3.6).
        ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, CONNECTION_ESTABLISHED))
                .addListener((ChannelFutureListener) written -> {
                    if (!written.isSuccess()) {
                        log.debug("{}: cannot send the CONNECT response", written.channel(), written.cause());
                        target.close();
                        written.channel().close();
                        return;
                    }
                    ChannelPipeline pipeline = ctx.pipeline();
                    pipeline.remove(this);
                    pipeline.remove(AGGREGATOR);
                    pipeline.remove(CODEC);
                    Relay.join(written.channel(), target);
                });
    }

    /** Maps a dial failure to a response status: 504 for a connect timeout, 403 for a non-loopback target, else 502. */
    static HttpResponseStatus statusFor(TargetDialer.Failure failure) {
        return switch (failure) {
            case TIMED_OUT -> HttpResponseStatus.GATEWAY_TIMEOUT;
            case NOT_ALLOWED -> HttpResponseStatus.FORBIDDEN;
            case REFUSED, UNRESOLVED, OTHER -> HttpResponseStatus.BAD_GATEWAY;
        };
    }

    private static FullHttpResponse errorResponse(HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
        response.headers()
                .setInt(HttpHeaderNames.CONTENT_LENGTH, 0)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return response;
    }

    private static void respondAndClose(ChannelHandlerContext ctx, FullHttpResponse response) {
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: HTTP CONNECT handling failed, closing", ctx.channel(), cause);
        ctx.close();
    }
}
