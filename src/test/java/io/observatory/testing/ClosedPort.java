package io.observatory.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Finds a loopback TCP port where nothing listens, so a connect to it is refused (RST) at once: the "target down" or
 * "proxy down" peer.
 */
public final class ClosedPort {

    private ClosedPort() {
    }

    /**
     * Returns a port on {@code 127.0.0.1} that was free a moment ago: it binds an ephemeral port, remembers it and
     * closes it. Another process could take the port in between; on a test machine that is rare.
     *
     * @throws UncheckedIOException if no port can be bound
     */
    public static int find() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(LoopbackServer.LOOPBACK, 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind an ephemeral port on 127.0.0.1", e);
        }
    }
}
