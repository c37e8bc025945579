package io.observatory.testing;

import io.netty.handler.codec.socksx.v5.Socks5InitialRequestDecoder;
import io.netty.handler.codec.socksx.v5.Socks5ServerEncoder;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real SOCKS5 proxy (RFC 1928) on {@code 127.0.0.1} for integration tests: CONNECT only, optionally with
 * username/password authentication (RFC 1929), relaying bytes both ways until either side closes.
 *
 * <p>Replies a client sees:
 * <ul>
 *   <li>method selection: {@code NO_AUTH} (open proxy) or {@code PASSWORD} (see {@link #start(String, String)}); a
 *       client that does not offer that method gets {@code UNACCEPTED} (0xFF) and the connection closes;
 *   <li>authentication: {@code SUCCESS}, or {@code FAILURE} (0xFF) and close;
 *   <li>command: {@code SUCCESS} with the proxy's local address as BND.ADDR/BND.PORT; {@code COMMAND_UNSUPPORTED}
 *       (0x07) for BIND and UDP ASSOCIATE; {@code CONNECTION_REFUSED} (0x05) when nothing listens at the target;
 *       {@code TTL_EXPIRED} (0x06) when the target does not complete the TCP handshake within
 *       {@link #TARGET_CONNECT_TIMEOUT} (microsocks' choice for a timeout); {@code HOST_UNREACHABLE} (0x04) for a
 *       host name the proxy cannot resolve; {@code FORBIDDEN} (0x02, "not allowed by ruleset") for a non-loopback
 *       destination; {@code FAILURE} (0x01) for anything else. Every failure reply is followed by a close.
 * </ul>
 *
 * <p>The proxy resolves DOMAIN destinations itself, from the hosts file only (it never sends a DNS query), and dials
 * loopback addresses only. It uses its own single-threaded event loop; {@link #close()} ends every connection.
 */
public final class Socks5TestProxy extends LabProxy {

    /** How long the proxy waits for a target's TCP handshake before it replies {@code TTL_EXPIRED}: 500 ms. */
    public static final Duration TARGET_CONNECT_TIMEOUT = TargetDialer.CONNECT_TIMEOUT;

    private final Set<String> refusedSources;

    private Socks5TestProxy(Credentials credentials) {
        this(credentials, ConcurrentHashMap.newKeySet());
    }

    private Socks5TestProxy(Credentials credentials, Set<String> refusedSources) {
        super("socks5-test-proxy", recorder -> channel -> {
            if (refusedSources.contains(channel.remoteAddress().getAddress().getHostAddress())) {
                channel.close();
                return;
            }
            channel.pipeline()
                    .addLast(Socks5ServerHandler.ENCODER, Socks5ServerEncoder.DEFAULT)
                    .addLast(Socks5ServerHandler.DECODER, new Socks5InitialRequestDecoder())
                    .addLast(new Socks5ServerHandler(credentials, recorder));
        });
        this.refusedSources = refusedSources;
    }

    /**
     * Closes every later connection from {@code sourceAddress} as soon as it is accepted, as a firewall rule on the
     * server that drops one client's address would make it fail; a mesh witness probing from that address then
     * sees its probes fail. Connections already open stay.
     */
    public void refuseFrom(String... sourceAddresses) {
        refusedSources.addAll(List.of(sourceAddresses));
    }

    /** Accepts connections from every address again. */
    public void acceptFromAll() {
        refusedSources.clear();
    }

    /** Starts an open proxy: it selects {@code NO_AUTH} and accepts any client. */
    public static Socks5TestProxy start() {
        return new Socks5TestProxy(null);
    }

    /**
     * Starts a proxy that requires RFC 1929 username/password authentication with exactly these credentials; a client
     * offering only {@code NO_AUTH} gets {@code UNACCEPTED} (0xFF).
     */
    public static Socks5TestProxy start(String username, String password) {
        return new Socks5TestProxy(new Credentials(username, password));
    }
}
