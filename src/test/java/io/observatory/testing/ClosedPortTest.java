package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClosedPortTest {

    @Test
    void findWhenConnectedToThenRefused() {
        int port = ClosedPort.find();

        assertThatThrownBy(() -> {
                    try (Socket socket = new Socket()) {
                        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                    }
                })
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("Connection refused");
    }

    @Test
    void findWhenCalledThenBelowTheEphemeralRangeSoNoPortZeroBindTakesItWhileAServerRestarts() throws Exception {
        int ephemeralLow = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                .get(0)
                .strip()
                .split("\\s+")[0]);

        assertThat(ClosedPort.find()).isGreaterThanOrEqualTo(10_000).isLessThan(ephemeralLow);
    }
}
