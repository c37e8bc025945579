package io.observatory.testing;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP listener on {@code 127.0.0.1} whose accept queue is full, so the kernel drops every new SYN and a connect to
 * it times out: the in-JVM way to get a connect timeout on loopback, where no address silently drops packets.
 *
 * <p>The listener has a backlog of 1 and is never accepted from; {@link #start()} fills its queue with
 * {@value #FILLER_CONNECTIONS} connections of its own. Linux queues backlog + 1 connections and, with the default
 * {@code tcp_abort_on_overflow=0}, drops (rather than resets) a SYN to a full queue; the client retransmits it after
 * about 1 s, 3 s, ... and gives up at its own connect timeout. {@code FullBacklogTest} checks this on the running
 * kernel. No event loop is involved: the kernel does all the work.
 */
public final class FullBacklog implements AutoCloseable {

    private static final int BACKLOG = 1;
    private static final int FILLER_CONNECTIONS = BACKLOG + 1;

    private final ServerSocketChannel listener;
    private final List<SocketChannel> fillers = new ArrayList<>();
    private final InetSocketAddress address;

    private FullBacklog() throws IOException {
        listener = ServerSocketChannel.open();
        try {
            listener.bind(new InetSocketAddress(LoopbackServer.LOOPBACK, 0), BACKLOG);
            address = (InetSocketAddress) listener.getLocalAddress();
            for (int i = 0; i < FILLER_CONNECTIONS; i++) {
                fillers.add(SocketChannel.open(address));
            }
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    /**
     * Starts a listener and fills its accept queue.
     *
     * @throws UncheckedIOException if the listener cannot be bound or filled
     */
    public static FullBacklog start() {
        try {
            return new FullBacklog();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up a full-backlog listener on 127.0.0.1", e);
        }
    }

    /** Returns the listener's address: {@code 127.0.0.1} and its ephemeral port. */
    public InetSocketAddress address() {
        return address;
    }

    /** Returns the listener's ephemeral TCP port. */
    public int port() {
        return address.getPort();
    }

    /** Closes the filler connections and the listener. */
    @Override
    public void close() {
        IOException failure = null;
        for (SocketChannel filler : fillers) {
            failure = closeKeepingFailure(filler, failure);
        }
        failure = closeKeepingFailure(listener, failure);
        if (failure != null) {
            throw new UncheckedIOException("cannot close the full-backlog listener", failure);
        }
    }

    private static IOException closeKeepingFailure(Closeable closeable, IOException previous) {
        try {
            closeable.close();
            return previous;
        } catch (IOException e) {
            if (previous != null) {
                previous.addSuppressed(e);
                return previous;
            }
            return e;
        }
    }
}
