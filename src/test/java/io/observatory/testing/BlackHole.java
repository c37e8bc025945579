package io.observatory.testing;

import java.net.InetSocketAddress;

/**
 * A TCP listener on {@code 127.0.0.1} that accepts every connection and then never reads or writes a byte: the
 * "target hangs" or "proxy hangs" peer. Connecting succeeds at once; a client then waits for an answer that never
 * comes, until its own timeout.
 *
 * <p>Accepted connections stay open (the kernel's receive buffer fills up, then the client's writes stall) until
 * {@link #close()}.
 */
public final class BlackHole implements AutoCloseable {

    private final LoopbackServer server;

    private BlackHole() {
        server = LoopbackServer.start("black-hole", channel -> channel.config().setAutoRead(false));
    }

    /** Starts a black hole on an ephemeral port. */
    public static BlackHole start() {
        return new BlackHole();
    }

    /** Returns the listener's address: {@code 127.0.0.1} and its ephemeral port. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** Returns the listener's ephemeral TCP port. */
    public int port() {
        return server.address().getPort();
    }

    /** Returns the number of TCP connections accepted (and then ignored) since start. */
    public int connectionCount() {
        return server.connectionCount();
    }

    /** Closes the listener and every connection it holds. */
    @Override
    public void close() {
        server.close();
    }
}
