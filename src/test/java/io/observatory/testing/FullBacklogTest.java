package io.observatory.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

class FullBacklogTest {

    @Test
    void connectWhenQueueFullThenTimesOutEveryTime() {
        try (FullBacklog target = FullBacklog.start()) {
            for (int attempt = 0; attempt < 2; attempt++) {
                assertThatThrownBy(() -> {
                            try (Socket socket = new Socket()) {
                                socket.connect(target.address(), 300);
                            }
                        })
                        .isInstanceOf(SocketTimeoutException.class);
            }
        }
    }
}
