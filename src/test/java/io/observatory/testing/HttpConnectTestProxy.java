package io.observatory.testing;

import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.time.Duration;

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
public final class HttpConnectTestProxy extends LabProxy {

    /** How long the proxy waits for a target's TCP handshake before it answers {@code 504}: 500 ms. */
    public static final Duration TARGET_CONNECT_TIMEOUT = TargetDialer.CONNECT_TIMEOUT;

    private static final int MAX_REQUEST_BYTES = 8192;

    private HttpConnectTestProxy(Credentials credentials) {
        super(
                "http-connect-test-proxy",
                recorder -> channel -> channel.pipeline()
                        .addLast(HttpConnectHandler.CODEC, new HttpServerCodec())
                        .addLast(HttpConnectHandler.AGGREGATOR, new HttpObjectAggregator(MAX_REQUEST_BYTES))
                        .addLast(new HttpConnectHandler(credentials, recorder)));
    }

    /** Starts an open proxy that tunnels any well-formed CONNECT. */
    public static HttpConnectTestProxy start() {
        return new HttpConnectTestProxy(null);
    }

    /** Starts a proxy that requires {@code Proxy-Authorization: Basic} with exactly these credentials. */
    public static HttpConnectTestProxy start(String username, String password) {
        return new HttpConnectTestProxy(new Credentials(username, password));
    }
}
