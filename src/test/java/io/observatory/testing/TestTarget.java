package io.observatory.testing;

import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real HTTP/1.1 server on {@code 127.0.0.1} that probes are aimed at, over plain HTTP or TLS, with routes for each
 * outcome a probe must classify.
 *
 * <p>Routes (any method; the query string is ignored):
 * <ul>
 *   <li>{@code /generate_204}: 204;
 *   <li>{@code /status/{code}}: that status (200–599) with an empty body; a 3xx carries
 *       {@code Location: /generate_204};
 *   <li>{@code /redirect/{n}}: a 302 to {@code /redirect/{n-1}} (0-100), and 204 at {@code /redirect/0};
 *   <li>{@code /delay/{millis}}: 204 after that many milliseconds, scheduled on the event loop;
 *   <li>{@code /body/{bytes}}: 200 with that many zero bytes ({@code application/octet-stream}, at most 16 MiB);
 *   <li>{@code /hang}: reads the request and never answers;
 *   <li>{@code /reset}: closes the connection with RST ({@code SO_LINGER} 0) without answering;
 *   <li>{@code /close}: closes the connection (FIN) without answering;
 *   <li>anything else: 404; a malformed parameter: 400.
 * </ul>
 * Connections are kept alive unless the client asks otherwise ({@code Connection: close}, HTTP/1.0).
 */
public final class TestTarget implements AutoCloseable {

    private static final int MAX_REQUEST_BYTES = 64 * 1024;

    private final Map<String, AtomicInteger> requestCounts = new ConcurrentHashMap<>();
    private final AtomicReference<RecordedRequest> lastRequest = new AtomicReference<>();
    private final String scheme;
    private final LoopbackServer server;

    private TestTarget(String scheme, int port, SslContext sslContext) {
        this.scheme = scheme;
        server = LoopbackServer.start("test-target-" + scheme, port, channel -> initChannel(channel, sslContext));
    }

    /** Starts a plain HTTP target. */
    public static TestTarget http() {
        return new TestTarget("http", 0, null);
    }

    /** Starts a plain HTTP target on {@code port} of {@code 127.0.0.1}, e.g. one of {@link ClosedPort#find()}. */
    public static TestTarget httpOn(int port) {
        return new TestTarget("http", port, null);
    }

    /** Starts an HTTPS target presenting the trusted certificate {@link TestTls#certificatePath()}. */
    public static TestTarget https() {
        return new TestTarget("https", 0, TestTls.trustedServerContext());
    }

    /**
     * Starts an HTTPS target presenting {@link TestTls#untrustedCertificatePath()}, which no test trusts: for the
     * "TLS handshake failure" case.
     */
    public static TestTarget httpsUntrusted() {
        return new TestTarget("https", 0, TestTls.untrustedServerContext());
    }

    private void initChannel(SocketChannel channel, SslContext sslContext) {
        if (sslContext != null) {
            channel.pipeline().addLast(sslContext.newHandler(channel.alloc()));
        }
        channel.pipeline()
                .addLast(new HttpServerCodec())
                .addLast(new HttpServerKeepAliveHandler())
                .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                .addLast(new TestTargetHandler(this::record));
    }

    private void record(RecordedRequest request) {
        requestCounts
                .computeIfAbsent(request.path(), path -> new AtomicInteger())
                .incrementAndGet();
        lastRequest.set(request);
    }

    /** Returns the target's address: {@code 127.0.0.1} and its ephemeral port. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** Returns the target's ephemeral TCP port. */
    public int port() {
        return server.address().getPort();
    }

    /** Returns e.g. {@code http://127.0.0.1:PORT/generate_204} for {@code path} {@code /generate_204}. */
    public String url(String path) {
        return urlWithHost("127.0.0.1", path);
    }

    /**
     * Returns a URL naming the target by {@code host}, e.g. {@code https://localhost:PORT/generate_204}, so a client
     * (or proxy) has a host name to resolve.
     */
    public String urlWithHost(String host, String path) {
        return scheme + "://" + host + ":" + port() + path;
    }

    /** Returns how many requests arrived for {@code path} (without query string), e.g. {@code /generate_204}. */
    public int requestCount(String path) {
        AtomicInteger count = requestCounts.get(path);
        return count == null ? 0 : count.get();
    }

    /**
     * Returns the number of accepted TCP connections that have closed since start, by either side: a client that gives
     * up on {@code /hang} shows here.
     */
    public int closedConnectionCount() {
        return server.closedConnectionCount();
    }

    /** Returns the most recent request received, or {@code null} before the first one. */
    public RecordedRequest lastRequest() {
        return lastRequest.get();
    }

    /** Returns the number of TCP connections accepted since start (a TLS handshake failure still counts). */
    public int connectionCount() {
        return server.connectionCount();
    }

    /** Stops listening and closes every connection, including those held by {@code /hang}. */
    @Override
    public void close() {
        server.close();
    }
}
