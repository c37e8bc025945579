package io.observatory.testing;

import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.function.Consumer;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.transport.ProxyProvider;

/** Builds the reactor-netty clients that the lab's own tests drive the lab servers with, one connection per request. */
final class LabClients {

    /** Upper bound for any single exchange in these tests: 5 s. */
    static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(5);

    /** What a test looks at in a response. */
    record Exchange(int status, HttpHeaders headers, int bodyBytes) {}

    private LabClients() {}

    /** Returns a client that connects directly and opens a new connection per request. */
    static HttpClient direct() {
        return HttpClient.create(ConnectionProvider.newConnection()).responseTimeout(EXCHANGE_TIMEOUT);
    }

    /** Returns {@code client} trusting only {@link TestTls#certificatePath()} (host names still verified). */
    static HttpClient trustingTestCertificate(HttpClient client) {
        Http11SslContextSpec tls = Http11SslContextSpec.forClient()
                .configure(builder ->
                        builder.trustManager(TestTls.certificatePath().toFile()));
        return client.secure(spec -> spec.sslContext(tls));
    }

    /** Returns a client going through a SOCKS5 proxy; {@code username} {@code null} means no credentials. */
    static HttpClient viaSocks5(Socks5TestProxy proxy, String username, String password) {
        return direct().proxy(proxy(ProxyProvider.Proxy.SOCKS5, proxy.port(), username, password));
    }

    /** Returns a client going through an HTTP CONNECT proxy; {@code username} {@code null} means no credentials. */
    static HttpClient viaHttpConnect(HttpConnectTestProxy proxy, String username, String password) {
        return direct().proxy(proxy(ProxyProvider.Proxy.HTTP, proxy.port(), username, password));
    }

    private static Consumer<? super ProxyProvider.TypeSpec> proxy(
            ProxyProvider.Proxy type, int port, String username, String password) {
        return spec -> {
            ProxyProvider.Builder builder = spec.type(type).host("127.0.0.1").port(port);
            if (username != null) {
                builder.username(username).password(user -> password);
            }
        };
    }

    /** Sends {@code GET url} and returns the response, failing with the client's error if there is none. */
    static Exchange get(HttpClient client, String url) {
        return client.get()
                .uri(url)
                .responseSingle((response, body) -> body.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> new Exchange(response.status().code(), response.responseHeaders(), bytes.length)))
                .block(EXCHANGE_TIMEOUT);
    }

    /** Returns the first throwable in {@code error}'s cause chain that is a {@code type}, or {@code null}. */
    static <T extends Throwable> T causeOfType(Throwable error, Class<T> type) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /**
     * Connects a plain socket to {@code address}, writes {@code request}, and returns every byte until the server
     * closes (a read timeout of 5 s fails the test instead).
     */
    static byte[] rawExchange(InetSocketAddress address, byte[] request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(address, (int) EXCHANGE_TIMEOUT.toMillis());
            socket.setSoTimeout((int) EXCHANGE_TIMEOUT.toMillis());
            socket.getOutputStream().write(request);
            return socket.getInputStream().readAllBytes();
        }
    }
}
