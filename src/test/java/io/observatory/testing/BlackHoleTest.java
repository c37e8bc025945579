package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BlackHoleTest {

    @Test
    void connectWhenRequestSentThenHandshakeCompletesButNoAnswer() throws IOException {
        try (BlackHole blackHole = BlackHole.start();
                Socket socket = new Socket()) {
            socket.connect(blackHole.address(), 1000);
            socket.setSoTimeout(300);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

            assertThat(socket.isConnected()).isTrue();
            assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            await().untilAsserted(() -> assertThat(blackHole.connectionCount()).isEqualTo(1));
        }
    }
}
