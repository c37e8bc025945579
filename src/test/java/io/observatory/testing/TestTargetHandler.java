package io.observatory.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the routes of a {@link TestTarget} on one connection; keep-alive is left to the
 * {@link io.netty.handler.codec.http.HttpServerKeepAliveHandler} before it.
 */
final class TestTargetHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    /** The largest body {@code /body/{bytes}} serves: 16 MiB. */
    private static final int MAX_BODY_BYTES = 16 << 20;

    private static final Logger log = LoggerFactory.getLogger(TestTargetHandler.class);

    private final Consumer<RecordedRequest> requests;

    TestTargetHandler(Consumer<RecordedRequest> requests) {
        this.requests = requests;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            log.debug(
                    "{}: malformed HTTP request",
                    ctx.channel(),
                    request.decoderResult().cause());
            ctx.writeAndFlush(response(HttpResponseStatus.BAD_REQUEST, 0, false))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        RecordedRequest recorded = new RecordedRequest(
                request.method().name(),
                request.uri(),
                request.protocolVersion().text(),
                request.headers().copy());
        requests.accept(recorded);
        boolean head = HttpMethod.HEAD.equals(request.method());
        String path = recorded.path();
        switch (path) {
            case "/generate_204" -> ctx.writeAndFlush(response(HttpResponseStatus.NO_CONTENT, 0, head));
            case "/hang" -> log.debug("{}: /hang, never answering", ctx.channel());
            case "/reset" -> {
                // SO_LINGER 0 makes close() abortive: the kernel sends RST instead of FIN.
                ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
                ctx.close();
            }
            case "/close" -> ctx.close();
            default -> answerParameterized(ctx, path, head);
        }
    }

    private static void answerParameterized(ChannelHandlerContext ctx, String path, boolean head) {
        if (path.startsWith("/status/")) {
            int code = parameter(path, "/status/", 200, 599);
            if (code < 0) {
                ctx.writeAndFlush(response(HttpResponseStatus.BAD_REQUEST, 0, head));
                return;
            }
            FullHttpResponse response = response(HttpResponseStatus.valueOf(code), 0, head);
            if (code >= 300 && code < 400) {
                response.headers().set(HttpHeaderNames.LOCATION, "/generate_204");
            }
            ctx.writeAndFlush(response);
        } else if (path.startsWith("/delay/")) {
            int millis = parameter(path, "/delay/", 0, Integer.MAX_VALUE);
            if (millis < 0) {
                ctx.writeAndFlush(response(HttpResponseStatus.BAD_REQUEST, 0, head));
                return;
            }
            ctx.executor()
                    .schedule(
                            () -> ctx.writeAndFlush(response(HttpResponseStatus.NO_CONTENT, 0, head)),
                            millis,
                            TimeUnit.MILLISECONDS);
        } else if (path.startsWith("/redirect/")) {
            int remaining = parameter(path, "/redirect/", 0, 100);
            if (remaining < 0) {
                ctx.writeAndFlush(response(HttpResponseStatus.BAD_REQUEST, 0, head));
                return;
            }
            FullHttpResponse response =
                    response(remaining == 0 ? HttpResponseStatus.NO_CONTENT : HttpResponseStatus.FOUND, 0, head);
            if (remaining > 0) {
                response.headers().set(HttpHeaderNames.LOCATION, "/redirect/" + (remaining - 1));
            }
            ctx.writeAndFlush(response);
        } else if (path.startsWith("/body/")) {
            int bytes = parameter(path, "/body/", 0, MAX_BODY_BYTES);
            ctx.writeAndFlush(
                    bytes < 0
                            ? response(HttpResponseStatus.BAD_REQUEST, 0, head)
                            : response(HttpResponseStatus.OK, bytes, head));
        } else {
            ctx.writeAndFlush(response(HttpResponseStatus.NOT_FOUND, 0, head));
        }
    }

    /** Parses the decimal after {@code prefix}; returns -1 when it is not a number within {@code [min, max]}. */
    private static int parameter(String path, String prefix, int min, int max) {
        String digits = path.substring(prefix.length());
        if (digits.isEmpty() || digits.length() > 10 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        long value = Long.parseLong(digits);
        return value < min || value > max ? -1 : (int) value;
    }

    /**
     * Builds a response whose body is {@code bodyBytes} zero bytes; a HEAD response announces the length but carries
     * no body, and a 204 carries neither (RFC 9110 section 8.6).
     */
    private static FullHttpResponse response(HttpResponseStatus status, int bodyBytes, boolean head) {
        ByteBuf body = head || bodyBytes == 0
                ? Unpooled.EMPTY_BUFFER
                : Unpooled.buffer(bodyBytes).writeZero(bodyBytes);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        if (!HttpResponseStatus.NO_CONTENT.equals(status)) {
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bodyBytes);
        }
        if (bodyBytes > 0) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        }
        return response;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: closing after error", ctx.channel(), cause);
        ctx.close();
    }
}
