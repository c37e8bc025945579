package io.observatory.testing;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One TCP listener on {@code 127.0.0.1} with an ephemeral port and its own single-threaded event loop: the common body
 * of the lab servers.
 *
 * <p>The listener and every accepted or dialed channel share the one event loop, so {@link #close()} tears all of them
 * down.
 */
final class LoopbackServer implements AutoCloseable {

    /** The only address lab servers bind to and, for the proxies, the only kind of address they dial. */
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static final long SHUTDOWN_TIMEOUT_SECONDS = 5;

    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger closedConnections = new AtomicInteger();
    private final EventLoopGroup group;
    private final Channel listener;

    private LoopbackServer(String name, int port, Consumer<SocketChannel> childInitializer) {
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(name, true), NioIoHandler.newFactory());
        ChannelFuture bound = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        connections.incrementAndGet();
                        channel.closeFuture().addListener(closed -> closedConnections.incrementAndGet());
                        childInitializer.accept(channel);
                    }
                })
                .bind(new InetSocketAddress(LOOPBACK, port))
                .awaitUninterruptibly();
        if (!bound.isSuccess()) {
            group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            throw new IllegalStateException(
                    name + ": cannot bind " + LOOPBACK.getHostAddress() + ":" + port, bound.cause());
        }
        listener = bound.channel();
    }

    /**
     * Binds a new listener on {@code 127.0.0.1:0}.
     *
     * @param name names the event loop thread, so thread dumps show which lab server it serves
     * @param childInitializer sets up the pipeline of each accepted connection, on the event loop
     * @throws IllegalStateException if the port cannot be bound
     */
    static LoopbackServer start(String name, Consumer<SocketChannel> childInitializer) {
        return new LoopbackServer(name, 0, childInitializer);
    }

    /**
     * Binds a new listener on {@code 127.0.0.1:port}, e.g. a port of {@link ClosedPort#find()} another server used
     * before.
     *
     * @throws IllegalStateException if the port cannot be bound
     */
    static LoopbackServer start(String name, int port, Consumer<SocketChannel> childInitializer) {
        return new LoopbackServer(name, port, childInitializer);
    }

    /** Returns the bound address, always {@code 127.0.0.1} and the ephemeral port. */
    InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    /** Returns the number of TCP connections accepted since start. */
    int connectionCount() {
        return connections.get();
    }

    /** Returns the number of accepted TCP connections that have closed since (by either side). */
    int closedConnectionCount() {
        return closedConnections.get();
    }

    /** Closes the listener and every connection, and waits (at most 5 s) for the event loop thread to end. */
    @Override
    public void close() {
        group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
