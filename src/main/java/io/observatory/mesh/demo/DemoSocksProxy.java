package io.observatory.mesh.demo;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.socksx.v5.DefaultSocks5CommandResponse;
import io.netty.handler.codec.socksx.v5.DefaultSocks5InitialResponse;
import io.netty.handler.codec.socksx.v5.Socks5AuthMethod;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequest;
import io.netty.handler.codec.socksx.v5.Socks5CommandRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5CommandStatus;
import io.netty.handler.codec.socksx.v5.Socks5CommandType;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequest;
import io.netty.handler.codec.socksx.v5.Socks5InitialRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5ServerEncoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A mesh demo server's entry point: an open SOCKS5 proxy (RFC 1928, CONNECT only, no authentication) on
 * {@code 127.0.0.1:port} that dials loopback targets only, and that can refuse chosen client source addresses, as a
 * firewall that drops one network's traffic would: a refused client's connection is closed as soon as it is accepted.
 * One event loop thread, shared by the demo's proxies.
 */
// A demo relay: a write or close that fails closes the relayed connections, which is all it could do anyway.
@SuppressWarnings("FutureReturnValueIgnored")
final class DemoSocksProxy implements AutoCloseable {

    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    private final Channel server;

    /** Starts listening; {@code loop} runs it and its tunnels. */
    DemoSocksProxy(EventLoopGroup loop, int port) {
        this.server = new ServerBootstrap()
                .group(loop)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (refused.contains(
                                channel.remoteAddress().getAddress().getHostAddress())) {
                            channel.close();
                            return;
                        }
                        channel.pipeline()
                                .addLast(
                                        Socks5ServerEncoder.DEFAULT,
                                        new Socks5InitialRequestDecoder(),
                                        new Handshake());
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                .syncUninterruptibly()
                .channel();
    }

    /** A loop for the demo's proxies: one daemon thread. */
    static EventLoopGroup loop() {
        return new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("mesh-demo-proxies", true), NioIoHandler.newFactory());
    }

    /** From now on refuses connections from exactly {@code sources} (IP addresses); an empty set accepts all. */
    void refuseOnly(Collection<String> sources) {
        refused.clear();
        refused.addAll(sources);
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }

    /** The method selection, then the CONNECT request. */
    private static final class Handshake extends SimpleChannelInboundHandler<Object> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object message) {
            if (message instanceof Socks5InitialRequest initial) {
                if (!initial.authMethods().contains(Socks5AuthMethod.NO_AUTH)) {
                    ctx.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.UNACCEPTED))
                            .addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                ctx.pipeline().replace(Socks5InitialRequestDecoder.class, "command", new Socks5CommandRequestDecoder());
                ctx.writeAndFlush(new DefaultSocks5InitialResponse(Socks5AuthMethod.NO_AUTH));
            } else if (message instanceof Socks5CommandRequest command) {
                connect(ctx, command);
            } else {
                ctx.close();
            }
        }

        private void connect(ChannelHandlerContext ctx, Socks5CommandRequest command) {
            Channel client = ctx.channel();
            InetSocketAddress target = new InetSocketAddress(command.dstAddr(), command.dstPort());
            if (!command.type().equals(Socks5CommandType.CONNECT)
                    || target.isUnresolved()
                    || !target.getAddress().isLoopbackAddress()) {
                reply(client, command, Socks5CommandStatus.FORBIDDEN).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            client.config().setAutoRead(false);
            new Bootstrap()
                    .group(client.eventLoop())
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2_000)
                    .handler(new Relay(client))
                    .connect(target)
                    .addListener((ChannelFutureListener) dialed -> {
                        if (!dialed.isSuccess()) {
                            reply(client, command, Socks5CommandStatus.CONNECTION_REFUSED)
                                    .addListener(ChannelFutureListener.CLOSE);
                            return;
                        }
                        reply(client, command, Socks5CommandStatus.SUCCESS).addListener(sent -> {
                            client.pipeline().remove(Socks5ServerEncoder.class);
                            client.pipeline().remove(Handshake.class);
                            client.pipeline().addLast(new Relay(dialed.channel()));
                            client.config().setAutoRead(true);
                        });
                    });
        }

        private static io.netty.channel.ChannelFuture reply(
                Channel client, Socks5CommandRequest command, Socks5CommandStatus status) {
            return client.writeAndFlush(new DefaultSocks5CommandResponse(status, command.dstAddrType()));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Copies what one side reads to the other and closes the other when this side closes. */
    private static final class Relay extends ChannelInboundHandlerAdapter {

        private final Channel peer;

        Relay(Channel peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            peer.writeAndFlush(message);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (peer.isActive()) {
                peer.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
