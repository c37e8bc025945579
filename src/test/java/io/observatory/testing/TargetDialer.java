package io.observatory.testing;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.HostsFileEntriesResolver;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * Opens a lab proxy's own connection to the destination a client asked for.
 *
 * <p>Two lab rules are enforced here. Host names are resolved from the hosts file only ({@code localhost} and the
 * like), so a lab proxy never sends a DNS query; any other name fails as {@link Failure#UNRESOLVED}. And only loopback
 * addresses are dialed; any other fails as {@link Failure#NOT_ALLOWED} without a packet being sent.
 */
final class TargetDialer {

    /** How long a lab proxy waits for the TCP handshake with a target before it answers with a timeout. */
    static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);

    /** Why a dial failed, in the terms the proxies translate into their reply codes. */
    enum Failure {
        /** The target answered the SYN with RST: nothing listens there. */
        REFUSED,
        /** No SYN-ACK within {@link #CONNECT_TIMEOUT}. */
        TIMED_OUT,
        /** The host name is not in the hosts file. */
        UNRESOLVED,
        /** The destination is not a loopback address. */
        NOT_ALLOWED,
        /** Anything else. */
        OTHER;

        /** Classifies the cause of a failed {@link #dial}. */
        static Failure of(Throwable cause) {
            // ConnectTimeoutException extends ConnectException, so it must be tested first.
            if (cause instanceof ConnectTimeoutException) {
                return TIMED_OUT;
            }
            if (cause instanceof ConnectException) {
                return REFUSED;
            }
            if (cause instanceof UnknownHostException) {
                return UNRESOLVED;
            }
            if (cause instanceof NotLoopbackException) {
                return NOT_ALLOWED;
            }
            return OTHER;
        }
    }

    private TargetDialer() {}

    /**
     * Connects to {@code host:port} on the client channel's event loop.
     *
     * <p>The returned target channel is the far half of a tunnel: its pipeline holds a {@link Relay} to
     * {@code client} and its reading is paused until {@link Relay#join} opens the tunnel.
     *
     * @param host a host name or an IPv4/IPv6 literal without brackets
     * @param port 0–65535
     * @return a future of the connected channel; on failure its cause classifies with {@link Failure#of}
     */
    static Future<Channel> dial(Channel client, String host, int port) {
        EventLoop loop = client.eventLoop();
        InetAddress address;
        try {
            address = resolve(host);
        } catch (IOException e) {
            return loop.newFailedFuture(e);
        }
        ChannelFuture connect = new Bootstrap()
                .group(loop)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis())
                .option(ChannelOption.AUTO_READ, false)
                .handler(new Relay(client))
                .connect(new InetSocketAddress(address, port));
        Promise<Channel> connected = loop.newPromise();
        connect.addListener(done -> {
            if (done.isSuccess()) {
                connected.setSuccess(connect.channel());
            } else {
                connected.setFailure(done.cause());
            }
        });
        return connected;
    }

    private static InetAddress resolve(String host) throws IOException {
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
        InetAddress address = literal != null
                ? InetAddress.getByAddress(literal)
                : HostsFileEntriesResolver.DEFAULT.address(host, ResolvedAddressTypes.IPV4_PREFERRED);
        if (address == null) {
            throw new UnknownHostException(host + " (lab proxies resolve names from the hosts file only)");
        }
        if (!address.isLoopbackAddress()) {
            throw new NotLoopbackException(host, address);
        }
        return address;
    }

    /** Raised for a destination outside the loopback network, which the lab never sends traffic to. */
    private static final class NotLoopbackException extends IOException {

        NotLoopbackException(String host, InetAddress address) {
            super(host + " is " + address.getHostAddress()
                    + ", not a loopback address (lab proxies dial loopback only)");
        }
    }
}
