package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class ClosedPortTest {

    @Test
    void findWhenConnectedToThenRefused() {
        int port = ClosedPort.find();

        assertThatThrownBy(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            }
        }).isInstanceOf(ConnectException.class).hasMessageContaining("Connection refused");
    }
}
