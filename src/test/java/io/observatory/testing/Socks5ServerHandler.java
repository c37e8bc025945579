package io.observatory.testing;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.socksx.v5.DefaultSocks5CommandResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5InitialResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5PasswordAuthResponse;
import io.netty.handler.codec.socksx.v5.Socks5AddressType;
import io.netty.handler.codec.socksx.v5.Socks5AuthMethod;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequest;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5CommandStatus;
import io.netty.handler.codec.socksx.v5.Socks5CommandType;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequest;
import io.netty.handler.codec.socksx.v5.Socks5Message;
import io.netty.handler.codec.socksx.v5.Socks5PasswordAuthRequest;
import io.netty.handler.codec.socksx.v5.Socks5PasswordAuthRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5PasswordAuthStatus;
import io.netty.util.concurrent.Future;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of one SOCKS5 connection (RFC 1928, username/password per RFC 1929): method selection,
 * authentication, then a CONNECT that ends in a {@link Relay} tunnel.
 *
 * <p>The pipeline is the state machine: the decoder named {@link #DECODER} is replaced by the one for the next
 * message the client may send, so a client cannot skip authentication. Bytes a client sends before the CONNECT reply
 * are not expected (RFC 1928 clients wait for it) and are dropped by the pipeline's tail.
 */
final class Socks5ServerHandler extends SimpleChannelInboundHandler<Socks5Message> {

    static final String ENCODER = "socks5-encoder";
    static final String DECODER = "socks5-decoder";

    private static final Logger log = LoggerFactory.getLogger(Socks5ServerHandler.class);

    private final Credentials credentials; // null: the proxy requires no authentication
    private final Consumer<RequestedDestination> requests;

    Socks5ServerHandler(Credentials credentials, Consumer<RequestedDestination> requests) {
        this.credentials = credentials;
        this.requests = requests;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Socks5Message msg) {
        if (msg.decoderResult().isFailure()) {
            log.debug(
                    "{}: malformed SOCKS5 message, closing",
                    ctx.channel(),
                    msg.decoderResult().cause());
            ctx.close();
        } else if (msg instanceof Socks5InitialRequest initial) {
            selectMethod(ctx, initial);
        } else if (msg instanceof Socks5PasswordAuthRequest auth) {
            authenticate(ctx, auth);
        } else if (msg instanceof Socks5CommandRequest command) {
            execute(ctx, command);
        } else {
            throw new IllegalStateException("unexpected SOCKS5 message: " + msg);
        }
    }

    private void selectMethod(ChannelHandlerContext ctx, Socks5InitialRequest initial) {
        Socks5AuthMethod required = credentials == null ? Socks5AuthMethod.NO_AUTH : Socks5AuthMethod.PASSWORD;
        if (!initial.authMethods().contains(required)) {
            log.debug("{}: client offers {}, proxy requires {}", ctx.channel(), initial.authMethods(), required);
            ctx.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.UNACCEPTED))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.pipeline()
                .replace(
                        DECODER,
                        DECODER,
                        credentials == null
                                ? new Socks5CommandRequestDecoder()
                                : new Socks5PasswordAuthRequestDecoder());
        ctx.writeAndFlush(new DefaultSocks5InitialResponse(required));
    }

    private void authenticate(ChannelHandlerContext ctx, Socks5PasswordAuthRequest auth) {
        if (!credentials.matches(auth.username(), auth.password())) {
            log.debug("{}: wrong credentials for user {}", ctx.channel(), auth.username());
            ctx.writeAndFlush(new DefaultSocks5PasswordAuthResponse(Socks5PasswordAuthStatus.FAILURE))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.pipeline().replace(DECODER, DECODER, new Socks5CommandRequestDecoder());
        ctx.writeAndFlush(new DefaultSocks5PasswordAuthResponse(Socks5PasswordAuthStatus.SUCCESS));
    }

    private void execute(ChannelHandlerContext ctx, Socks5CommandRequest command) {
        requests.accept(RequestedDestination.ofSocks5(command.dstAddrType(), command.dstAddr(), command.dstPort()));
        if (!Socks5CommandType.CONNECT.equals(command.type())) {
            replyAndClose(ctx, Socks5CommandStatus.COMMAND_UNSUPPORTED);
            return;
        }
        ctx.channel().config().setAutoRead(false);
        TargetDialer.dial(ctx.channel(), command.dstAddr(), command.dstPort()).addListener((Future<Channel> dialed) -> {
            if (dialed.isSuccess()) {
                openTunnel(ctx, dialed.getNow());
            } else {
                log.debug(
                        "{}: cannot reach {}:{}", ctx.channel(), command.dstAddr(), command.dstPort(), dialed.cause());
                replyAndClose(ctx, statusFor(TargetDialer.Failure.of(dialed.cause())));
            }
        });
    }

    private void openTunnel(ChannelHandlerContext ctx, Channel target) {
        InetSocketAddress bound = (InetSocketAddress) target.localAddress();
        Socks5AddressType boundType =
                bound.getAddress() instanceof Inet6Address ? Socks5AddressType.IPv6 : Socks5AddressType.IPv4;
        ctx.writeAndFlush(new DefaultSocks5CommandResponse(
                        Socks5CommandStatus.SUCCESS,
                        boundType,
                        bound.getAddress().getHostAddress(),
                        bound.getPort()))
                .addListener((ChannelFutureListener) written -> {
                    if (!written.isSuccess()) {
                        log.debug("{}: cannot send the CONNECT reply", written.channel(), written.cause());
                        target.close();
                        written.channel().close();
                        return;
                    }
                    ChannelPipeline pipeline = ctx.pipeline();
                    pipeline.remove(ENCODER);
                    pipeline.remove(DECODER);
                    pipeline.remove(this);
                    Relay.join(written.channel(), target);
                });
    }

    /**
     * Maps a dial failure to a CONNECT reply code. A connect timeout is {@code TTL_EXPIRED} (0x06), as microsocks
     * answers for {@code ETIMEDOUT}, which keeps it distinct from an unknown host ({@code HOST_UNREACHABLE}, 0x04).
     */
    static Socks5CommandStatus statusFor(TargetDialer.Failure failure) {
        return switch (failure) {
            case REFUSED -> Socks5CommandStatus.CONNECTION_REFUSED;
            case TIMED_OUT -> Socks5CommandStatus.TTL_EXPIRED;
            case UNRESOLVED -> Socks5CommandStatus.HOST_UNREACHABLE;
            case NOT_ALLOWED -> Socks5CommandStatus.FORBIDDEN;
            case OTHER -> Socks5CommandStatus.FAILURE;
        };
    }

    private static void replyAndClose(ChannelHandlerContext ctx, Socks5CommandStatus status) {
        // RFC 1928 wants BND.ADDR/BND.PORT even in a failure reply; Netty encodes a null address as 0.0.0.0.
        ctx.writeAndFlush(new DefaultSocks5CommandResponse(status, Socks5AddressType.IPv4))
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: SOCKS5 handshake failed, closing", ctx.channel(), cause);
        ctx.close();
    }
}
