package io.observatory.testing;

import static io.observatory.testing.LabClients.causeOfType;
import static io.observatory.testing.LabClients.get;
import static io.observatory.testing.LabClients.trustingTestCertificate;
import static io.observatory.testing.LabClients.viaSocks5;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.handler.proxy.ProxyConnectException;
import io.observatory.testing.LabClients.Exchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import reactor.netty.http.client.PrematureCloseException;

class Socks5TestProxyTest {

    @Test
    void connectWhenOpenProxyThenRelaysResponseAndRecordsHostNameUnresolved() {
        try (TestTarget target = TestTarget.http();
                Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Exchange exchange = get(viaSocks5(proxy, null, null), target.urlWithHost("localhost", "/generate_204"));

            assertThat(exchange.status()).isEqualTo(204);
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", target.port()));
            assertThat(proxy.connectionCount()).isEqualTo(1);
            assertThat(target.requestCount("/generate_204")).isEqualTo(1);
        }
    }

    @Test
    void connectWhenIpLiteralThenRecordsIpv4Destination() {
        try (TestTarget target = TestTarget.http();
                Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Exchange exchange = get(viaSocks5(proxy, null, null), target.url("/status/404"));

            assertThat(exchange.status()).isEqualTo(404);
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.ipv4("127.0.0.1", target.port()));
        }
    }

    @Test
    void connectWhenHttpsThroughProxyThenTrustedCertificateAndBodyRelayed() {
        try (TestTarget target = TestTarget.https();
                Socks5TestProxy proxy = Socks5TestProxy.start("user", "secret")) {
            Exchange exchange = get(
                    trustingTestCertificate(viaSocks5(proxy, "user", "secret")),
                    target.urlWithHost("localhost", "/body/100000"));

            assertThat(exchange.status()).isEqualTo(200);
            assertThat(exchange.bodyBytes()).isEqualTo(100_000);
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", target.port()));
        }
    }

    @Test
    void connectWhenPasswordWrongThenAuthFailure() {
        try (TestTarget target = TestTarget.http();
                Socks5TestProxy proxy = Socks5TestProxy.start("user", "secret")) {
            Throwable error = catchThrowable(
                    () -> get(viaSocks5(proxy, "user", "wrong"), target.urlWithHost("localhost", "/generate_204")));

            assertThat(causeOfType(error, ProxyConnectException.class))
                    .hasMessageContaining("authStatus: FAILURE(255)");
            assertThat(proxy.requestedDestinations()).isEmpty();
            assertThat(target.connectionCount()).isZero();
        }
    }

    @Test
    void connectWhenNoCredentialsOfferedToAuthProxyThenMethodUnaccepted() {
        try (TestTarget target = TestTarget.http();
                Socks5TestProxy proxy = Socks5TestProxy.start("user", "secret")) {
            Throwable error = catchThrowable(
                    () -> get(viaSocks5(proxy, null, null), target.urlWithHost("localhost", "/generate_204")));

            assertThat(causeOfType(error, ProxyConnectException.class))
                    .hasMessageContaining("unexpected authMethod: UNACCEPTED(255)");
            assertThat(proxy.requestedDestinations()).isEmpty();
        }
    }

    @Test
    void connectWhenTargetRefusesThenConnectionRefusedReply() {
        int closedPort = ClosedPort.find();
        try (Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Throwable error = catchThrowable(
                    () -> get(viaSocks5(proxy, null, null), "http://localhost:" + closedPort + "/generate_204"));

            assertThat(causeOfType(error, ProxyConnectException.class))
                    .hasMessageContaining("status: CONNECTION_REFUSED(5)");
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("localhost", closedPort));
        }
    }

    @Test
    void connectWhenTargetNeverCompletesHandshakeThenTtlExpiredReply() {
        try (FullBacklog target = FullBacklog.start();
                Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Throwable error = catchThrowable(
                    () -> get(viaSocks5(proxy, null, null), "http://localhost:" + target.port() + "/generate_204"));

            assertThat(causeOfType(error, ProxyConnectException.class)).hasMessageContaining("status: TTL_EXPIRED(6)");
        }
    }

    @Test
    void connectWhenHostNameUnknownThenHostUnreachableReply() {
        try (Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Throwable error = catchThrowable(
                    () -> get(viaSocks5(proxy, null, null), "http://unknown-host.invalid:80/generate_204"));

            assertThat(causeOfType(error, ProxyConnectException.class))
                    .hasMessageContaining("status: HOST_UNREACHABLE(4)");
            assertThat(proxy.requestedDestinations())
                    .containsExactly(RequestedDestination.domain("unknown-host.invalid", 80));
        }
    }

    @Test
    void connectWhenDestinationNotLoopbackThenForbiddenReply() {
        // 0.0.0.0 is not a loopback address, yet harmless: were it dialed, Linux would connect it to this host.
        try (Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Throwable error = catchThrowable(
                    () -> get(viaSocks5(proxy, null, null), "http://0.0.0.0:" + ClosedPort.find() + "/generate_204"));

            assertThat(causeOfType(error, ProxyConnectException.class)).hasMessageContaining("status: FORBIDDEN(2)");
        }
    }

    @Test
    void relayWhenTargetClosesThenClientConnectionCloses() {
        try (TestTarget target = TestTarget.http();
                Socks5TestProxy proxy = Socks5TestProxy.start()) {
            Throwable error =
                    catchThrowable(() -> get(viaSocks5(proxy, null, null), target.urlWithHost("localhost", "/close")));

            assertThat(causeOfType(error, PrematureCloseException.class)).isNotNull();
            assertThat(target.requestCount("/close")).isEqualTo(1);
        }
    }

    @Test
    void bindWhenRequestedThenCommandUnsupportedAndClose() throws IOException {
        try (Socks5TestProxy proxy = Socks5TestProxy.start();
                Socket socket = new Socket()) {
            socket.connect(proxy.address(), 5000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            out.write(new byte[] {5, 1, 0}); // VER 5, one method: NO_AUTH
            byte[] methodReply = in.readNBytes(2);
            out.write(new byte[] {5, 2, 0, 1, 127, 0, 0, 1, 0x1F, (byte) 0x90}); // BIND 127.0.0.1:8080
            byte[] commandReply = in.readAllBytes();

            assertThat(methodReply).containsExactly(5, 0);
            // VER, REP=COMMAND_UNSUPPORTED, RSV, ATYP=IPv4, BND.ADDR=0.0.0.0, BND.PORT=0, then the proxy closes.
            assertThat(commandReply).containsExactly(5, 7, 0, 1, 0, 0, 0, 0, 0, 0);
            assertThat(proxy.requestedDestinations()).containsExactly(RequestedDestination.ipv4("127.0.0.1", 8080));
        }
    }
}
