package io.observatory.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.awaitility.Awaitility;

/** Watches a loopback port of a starting server for the moment it accepts connections. */
public final class PortOpening {

    private PortOpening() {}

    /**
     * Tries to connect to {@code 127.0.0.1:port} every 5 ms and returns the {@link System#nanoTime()} reading when a
     * connection was first accepted (the test connection is closed at once).
     *
     * @throws org.awaitility.core.ConditionTimeoutException if none is accepted within {@code timeout}
     */
    public static long await(int port, Duration timeout) {
        return Awaitility.await()
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(5))
                .until(
                        () -> {
                            try (Socket socket = new Socket()) {
                                socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
                                return System.nanoTime();
                            } catch (IOException refused) {
                                return 0L;
                            }
                        },
                        at -> at != 0L);
    }
}
