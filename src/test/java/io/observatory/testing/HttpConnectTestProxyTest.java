package io.observatory.testing;

import static io.observatory.testing.LabClients.causeOfType;
import static io.observatory.testing.LabClients.get;
import static io.observatory.testing.LabClients.rawExchange;
import static io.observatory.testing.LabClients.trustingTestCertificate;
import static io.observatory.testing.LabClients.viaHttpConnect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.handler.proxy.HttpProxyHandler.HttpProxyConnectException;
import io.observatory.testing.LabClients.Exchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpConnectTestProxyTest {

    @Test
    void connectWhenOpenProxyThenRelaysResponseAndRecordsHostNameUnresolved() {
        try (TestTarget target = TestTarget.http();
                HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            Exchange exchange =
                    get(viaHttpConnect(proxy, null, null), target.urlWithHost("localhost", "/generate_204"));

            assertThat(exchange.status()).isEqualTo(204);
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", target.port()));
            assertThat(proxy.connectionCount()).isEqualTo(1);
            assertThat(target.requestCount("/generate_204")).isEqualTo(1);
        }
    }

    @Test
    void connectWhenHttpsThroughProxyThenTrustedCertificateAndBodyRelayed() {
        try (TestTarget target = TestTarget.https();
                HttpConnectTestProxy proxy = HttpConnectTestProxy.start("user", "secret")) {
            Exchange exchange = get(
                    trustingTestCertificate(viaHttpConnect(proxy, "user", "secret")),
                    target.urlWithHost("localhost", "/body/100000"));

            assertThat(exchange.status()).isEqualTo(200);
            assertThat(exchange.bodyBytes()).isEqualTo(100_000);
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", target.port()));
        }
    }

    @Test
    void connectWhenAuthorizationMissingThen407WithBasicChallenge() {
        try (TestTarget target = TestTarget.http();
                HttpConnectTestProxy proxy = HttpConnectTestProxy.start("user", "secret")) {
            Throwable error = catchThrowable(
                    () -> get(viaHttpConnect(proxy, null, null), target.urlWithHost("localhost", "/generate_204")));

            HttpProxyConnectException rejection = causeOfType(error, HttpProxyConnectException.class);
            assertThat(rejection).hasMessageContaining("status: 407 Proxy Authentication Required");
            assertThat(rejection.headers().get("Proxy-Authenticate")).isEqualTo("Basic realm=\"test\"");
            assertThat(target.connectionCount()).isZero();
        }
    }

    @Test
    void connectWhenPasswordWrongThen407() {
        try (TestTarget target = TestTarget.http();
                HttpConnectTestProxy proxy = HttpConnectTestProxy.start("user", "secret")) {
            Throwable error = catchThrowable(() ->
                    get(viaHttpConnect(proxy, "user", "wrong"), target.urlWithHost("localhost", "/generate_204")));

            assertThat(causeOfType(error, HttpProxyConnectException.class))
                    .hasMessageContaining("status: 407 Proxy Authentication Required");
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", target.port()));
            assertThat(target.connectionCount()).isZero();
        }
    }

    @Test
    void connectWhenTargetRefusesThen502() {
        int closedPort = ClosedPort.find();
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            Throwable error = catchThrowable(
                    () -> get(viaHttpConnect(proxy, null, null), "http://localhost:" + closedPort + "/generate_204"));

            assertThat(causeOfType(error, HttpProxyConnectException.class))
                    .hasMessageContaining("status: 502 Bad Gateway");
        }
    }

    @Test
    void connectWhenHostNameUnknownThen502() {
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            Throwable error = catchThrowable(
                    () -> get(viaHttpConnect(proxy, null, null), "http://unknown-host.invalid:80/generate_204"));

            assertThat(causeOfType(error, HttpProxyConnectException.class))
                    .hasMessageContaining("status: 502 Bad Gateway");
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("unknown-host.invalid", 80));
        }
    }

    @Test
    void connectWhenTargetNeverCompletesHandshakeThen504() {
        try (FullBacklog target = FullBacklog.start();
                HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            Throwable error = catchThrowable(() ->
                    get(viaHttpConnect(proxy, null, null), "http://localhost:" + target.port() + "/generate_204"));

            assertThat(causeOfType(error, HttpProxyConnectException.class))
                    .hasMessageContaining("status: 504 Gateway Timeout");
        }
    }

    @Test
    void connectWhenDestinationNotLoopbackThen403() {
        // 0.0.0.0 is not a loopback address, yet harmless: were it dialed, Linux would connect it to this host.
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            Throwable error = catchThrowable(() ->
                    get(viaHttpConnect(proxy, null, null), "http://0.0.0.0:" + ClosedPort.find() + "/generate_204"));

            assertThat(causeOfType(error, HttpProxyConnectException.class))
                    .hasMessageContaining("status: 403 Forbidden");
        }
    }

    @Test
    void getWhenNotConnectThen405AndClose() throws IOException {
        try (HttpConnectTestProxy proxy = HttpConnectTestProxy.start()) {
            String request = "GET http://127.0.0.1:9/ HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n";

            byte[] response = rawExchange(proxy.address(), request.getBytes(StandardCharsets.US_ASCII));

            assertThat(new String(response, StandardCharsets.US_ASCII))
                    .startsWith("HTTP/1.1 405 Method Not Allowed\r\n")
                    .containsIgnoringCase("allow: CONNECT");
            assertThat(proxy.requestedDestinations()).isEmpty();
        }
    }
}
