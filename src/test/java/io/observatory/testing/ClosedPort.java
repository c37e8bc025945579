package io.observatory.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds a loopback TCP port where nothing listens, so a connect to it is refused (RST) at once: the "target down" or
 * "proxy down" peer.
 *
 * <p>The port is taken below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}), so no socket bound
 * to port 0 and no outgoing connection — of this JVM or of a parallel test fork — is ever given it. A test may
 * therefore stop a server on the port and start it again there: nothing else takes the port in between.
 */
public final class ClosedPort {

    private static final Path PORT_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    private static final int DEFAULT_EPHEMERAL_LOW = 32_768;

    private ClosedPort() {}

    /**
     * Returns a port on {@code 127.0.0.1} below the ephemeral range that was free a moment ago: it tries ports from a
     * random start, binds the first free one and closes it.
     *
     * @throws UncheckedIOException if no port in {@code [10000, ephemeral low)} can be bound
     */
    public static int find() {
        int high = ephemeralLow();
        int span = high - LOWEST;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            int port = LOWEST + (start + i) % span;
            if (free(port)) {
                return port;
            }
        }
        throw new UncheckedIOException(new IOException("no free port on 127.0.0.1 in [" + LOWEST + ", " + high + ")"));
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(LoopbackServer.LOOPBACK, port));
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    private static int ephemeralLow() {
        try {
            int low = Integer.parseInt(
                    Files.readAllLines(PORT_RANGE).get(0).strip().split("\\s+")[0]);
            return Math.max(low, LOWEST + 1_000);
        } catch (IOException | RuntimeException unreadable) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }
}
