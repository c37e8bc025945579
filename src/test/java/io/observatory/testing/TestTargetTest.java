package io.observatory.testing;

import static io.observatory.testing.LabClients.EXCHANGE_TIMEOUT;
import static io.observatory.testing.LabClients.causeOfType;
import static io.observatory.testing.LabClients.direct;
import static io.observatory.testing.LabClients.get;
import static io.observatory.testing.LabClients.rawExchange;
import static io.observatory.testing.LabClients.trustingTestCertificate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.handler.timeout.ReadTimeoutException;
import io.observatory.testing.LabClients.Exchange;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.netty.http.client.HttpClient;

class TestTargetTest {

    @Test
    void generate204WhenGetThen204AndRequestRecorded() {
        try (TestTarget target = TestTarget.http()) {
            Exchange exchange =
                    get(direct().headers(h -> h.set("X-Probe", "observatory")), target.url("/generate_204?attempt=1"));

            assertThat(exchange.status()).isEqualTo(204);
            assertThat(exchange.headers().contains("Content-Length")).isFalse();
            assertThat(target.requestCount("/generate_204")).isEqualTo(1);
            RecordedRequest last = target.lastRequest();
            assertThat(last.method()).isEqualTo("GET");
            assertThat(last.uri()).isEqualTo("/generate_204?attempt=1");
            assertThat(last.path()).isEqualTo("/generate_204");
            assertThat(last.protocolVersion()).isEqualTo("HTTP/1.1");
            assertThat(last.header("x-probe")).isEqualTo("observatory");
            assertThat(last.header("Host")).isEqualTo("127.0.0.1:" + target.port());
        }
    }

    @Test
    void urlWhenBuiltThenNamesLoopbackOrGivenHost() {
        try (TestTarget http = TestTarget.http();
                TestTarget https = TestTarget.https()) {
            assertThat(http.url("/generate_204")).isEqualTo("http://127.0.0.1:" + http.port() + "/generate_204");
            assertThat(https.urlWithHost("localhost", "/hang"))
                    .isEqualTo("https://localhost:" + https.port() + "/hang");
            assertThat(http.address().getAddress().isLoopbackAddress()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 404, 500, 503})
    void statusWhenRequestedThenThatStatus(int code) {
        try (TestTarget target = TestTarget.http()) {
            assertThat(get(direct(), target.url("/status/" + code)).status()).isEqualTo(code);
        }
    }

    @Test
    void statusWhenRedirectThenLocationHeader() {
        try (TestTarget target = TestTarget.http()) {
            Exchange exchange = get(direct(), target.url("/status/301"));

            assertThat(exchange.status()).isEqualTo(301);
            assertThat(exchange.headers().get("Location")).isEqualTo("/generate_204");
            assertThat(target.requestCount("/generate_204")).isZero();
        }
    }

    @Test
    void statusWhenCodeOutOfRangeThen400() {
        try (TestTarget target = TestTarget.http()) {
            assertThat(get(direct(), target.url("/status/99")).status()).isEqualTo(400);
            assertThat(get(direct(), target.url("/status/abc")).status()).isEqualTo(400);
        }
    }

    @Test
    void delayWhenRequestedThen204NoSoonerThanDelay() {
        try (TestTarget target = TestTarget.http()) {
            long start = System.nanoTime();
            Exchange exchange = get(direct(), target.url("/delay/200"));
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

            assertThat(exchange.status()).isEqualTo(204);
            assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        }
    }

    @Test
    void bodyWhenRequestedThenThatManyBytes() {
        try (TestTarget target = TestTarget.http()) {
            Exchange exchange = get(direct(), target.url("/body/1000"));

            assertThat(exchange.status()).isEqualTo(200);
            assertThat(exchange.bodyBytes()).isEqualTo(1000);
            assertThat(exchange.headers().get("Content-Type")).isEqualTo("application/octet-stream");
        }
    }

    @Test
    void bodyWhenHeadThenLengthWithoutBody() {
        try (TestTarget target = TestTarget.http()) {
            Exchange exchange = direct().head()
                    .uri(target.url("/body/1000"))
                    .responseSingle((response, body) -> body.asByteArray()
                            .defaultIfEmpty(new byte[0])
                            .map(bytes ->
                                    new Exchange(response.status().code(), response.responseHeaders(), bytes.length)))
                    .block(EXCHANGE_TIMEOUT);

            assertThat(exchange.status()).isEqualTo(200);
            assertThat(exchange.headers().get("Content-Length")).isEqualTo("1000");
            assertThat(exchange.bodyBytes()).isZero();
            assertThat(target.lastRequest().method()).isEqualTo("HEAD");
        }
    }

    @Test
    void hangWhenRequestedThenNoResponseUntilClientTimeout() {
        try (TestTarget target = TestTarget.http()) {
            Throwable error =
                    catchThrowable(() -> get(direct().responseTimeout(Duration.ofMillis(300)), target.url("/hang")));

            assertThat(causeOfType(error, ReadTimeoutException.class)).isNotNull();
            assertThat(target.requestCount("/hang")).isEqualTo(1);
        }
    }

    @Test
    void resetWhenRequestedThenConnectionReset() {
        try (TestTarget target = TestTarget.http()) {
            assertThatThrownBy(() -> rawExchange(target.address(), request("/reset", "keep-alive")))
                    .isInstanceOf(SocketException.class)
                    .hasMessageContaining("Connection reset");
            assertThat(target.requestCount("/reset")).isEqualTo(1);
        }
    }

    @Test
    void closeWhenRequestedThenEndOfStreamWithoutResponse() throws IOException {
        try (TestTarget target = TestTarget.http()) {
            assertThat(rawExchange(target.address(), request("/close", "keep-alive")))
                    .isEmpty();
            assertThat(target.requestCount("/close")).isEqualTo(1);
        }
    }

    @Test
    void connectionWhenClientAsksCloseThenServerClosesAfterResponse() throws IOException {
        try (TestTarget target = TestTarget.http()) {
            String response = new String(
                    rawExchange(target.address(), request("/generate_204", "close")), StandardCharsets.US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 204 No Content\r\n").containsIgnoringCase("connection: close");
            assertThat(target.lastRequest().header("Connection")).isEqualTo("close");
        }
    }

    @Test
    void connectionWhenKeepAliveThenServesSeveralRequestsOnOneConnection() throws IOException {
        try (TestTarget target = TestTarget.http();
                Socket socket = new Socket()) {
            socket.connect(target.address(), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request("/generate_204", "keep-alive"));
            socket.getOutputStream().write(request("/status/404", "close"));
            String responses = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

            assertThat(responses).startsWith("HTTP/1.1 204 No Content\r\n").contains("HTTP/1.1 404 Not Found\r\n");
            assertThat(target.connectionCount()).isEqualTo(1);
        }
    }

    @Test
    void httpsWhenCertificateTrustedThenVerifiesBothNames() {
        try (TestTarget target = TestTarget.https()) {
            HttpClient client = trustingTestCertificate(direct());

            assertThat(get(client, target.urlWithHost("localhost", "/generate_204"))
                            .status())
                    .isEqualTo(204);
            assertThat(get(client, target.url("/generate_204")).status()).isEqualTo(204);
            assertThat(target.requestCount("/generate_204")).isEqualTo(2);
        }
    }

    @Test
    void httpsUntrustedWhenHandshakeThenPathValidationFails() {
        try (TestTarget target = TestTarget.httpsUntrusted()) {
            Throwable error = catchThrowable(
                    () -> get(trustingTestCertificate(direct()), target.urlWithHost("localhost", "/generate_204")));

            assertThat(causeOfType(error, SSLHandshakeException.class))
                    .hasMessageContaining("Path does not chain with any of the trust anchors");
            assertThat(target.requestCount("/generate_204")).isZero();
        }
    }

    private static byte[] request(String path, String connection) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: " + connection + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }
}
