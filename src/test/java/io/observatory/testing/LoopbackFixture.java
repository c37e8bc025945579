package io.observatory.testing;

import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * The public face shared by the lab servers: one {@link LoopbackServer} on {@code 127.0.0.1} and an ephemeral port,
 * its address, its accepted-connection count, and {@link #close()}.
 */
public abstract class LoopbackFixture implements AutoCloseable {

    private final LoopbackServer server;

    /**
     * @param name names the event loop thread
     * @param childInitializer sets up the pipeline of each accepted connection
     */
    LoopbackFixture(String name, Consumer<SocketChannel> childInitializer) {
        server = LoopbackServer.start(name, childInitializer);
    }

    /** Like the other constructor, on {@code port} of {@code 127.0.0.1}. */
    LoopbackFixture(String name, int port, Consumer<SocketChannel> childInitializer) {
        server = LoopbackServer.start(name, port, childInitializer);
    }

    /** Returns the listening address: {@code 127.0.0.1} and its ephemeral port. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** Returns the ephemeral TCP port. */
    public int port() {
        return server.address().getPort();
    }

    /** Returns the number of TCP connections accepted since start. */
    public int connectionCount() {
        return server.connectionCount();
    }

    /** Stops listening and closes every connection, including those the server dialled itself. */
    @Override
    public void close() {
        server.close();
    }
}
