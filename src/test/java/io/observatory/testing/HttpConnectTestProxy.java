package io.observatory.testing;

import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP proxy on {@code 127.0.0.1} for integration tests that accepts only {@code CONNECT host:port}, optionally
 * behind Basic authentication, and then relays raw bytes both ways until either side closes.
 *
 * <p>Responses a client sees (each error response carries {@code Connection: close} and is followed by a close):
 * <ul>
 *   <li>{@code 200 Connection established}, then the tunnel;
 *   <li>{@code 407} with {@code Proxy-Authenticate: Basic realm="test"} when credentials are required and the
 *       {@code Proxy-Authorization} header is missing or wrong (unlike tinyproxy, which answers 401 to wrong ones);
 *   <li>{@code 405} with {@code Allow: CONNECT} for any other method; {@code 400} for a malformed request or target;
 *   <li>{@code 502} when nothing listens at the target or its host name cannot be resolved; {@code 504} when the
 *       target does not complete the TCP handshake within {@link #TARGET_CONNECT_TIMEOUT}; {@code 403} for a
 *       non-loopback destination.
 * </ul>
 *
 * <p>The proxy resolves host names itself, from the hosts file only (it never sends a DNS query), and dials loopback
 * addresses only. It uses its own single-threaded event loop; {@link #close()} ends every connection.
 */
public final class HttpConnectTestProxy implements AutoCloseable {

    /** How long the proxy waits for a target's TCP handshake before it answers {@code 504}: 500 ms. */
    public static final Duration TARGET_CONNECT_TIMEOUT = TargetDialer.CONNECT_TIMEOUT;

    private static final int MAX_REQUEST_BYTES = 8192;

    private final List<RequestedDestination> requestedDestinations = new CopyOnWriteArrayList<>();
    private final LoopbackServer server;

    private HttpConnectTestProxy(Credentials credentials) {
        server = LoopbackServer.start("http-connect-test-proxy", channel -> channel.pipeline()
                .addLast(HttpConnectHandler.CODEC, new HttpServerCodec())
                .addLast(HttpConnectHandler.AGGREGATOR, new HttpObjectAggregator(MAX_REQUEST_BYTES))
                .addLast(new HttpConnectHandler(credentials, requestedDestinations::add)));
    }

    /** Starts an open proxy that tunnels any well-formed CONNECT. */
    public static HttpConnectTestProxy start() {
        return new HttpConnectTestProxy(null);
    }

    /** Starts a proxy that requires {@code Proxy-Authorization: Basic} with exactly these credentials. */
    public static HttpConnectTestProxy start(String username, String password) {
        return new HttpConnectTestProxy(new Credentials(username, password));
    }

    /** Returns the proxy's address: {@code 127.0.0.1} and its ephemeral port. */
    public InetSocketAddress address() {
        return server.address();
    }

    /** Returns the proxy's ephemeral TCP port. */
    public int port() {
        return server.address().getPort();
    }

    /** Returns the number of client TCP connections the proxy accepted since start. */
    public int connectionCount() {
        return server.connectionCount();
    }

    /**
     * Returns a snapshot of the targets of every well-formed CONNECT request, in arrival order and as the client wrote
     * them (a request for {@code localhost:8443} stays the name {@code localhost}), including requests then rejected
     * for missing or wrong credentials.
     */
    public List<RequestedDestination> requestedDestinations() {
        return List.copyOf(requestedDestinations);
    }

    /** Stops listening and closes every client and target connection. */
    @Override
    public void close() {
        server.close();
    }
}
