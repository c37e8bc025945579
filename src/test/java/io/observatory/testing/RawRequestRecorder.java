package io.observatory.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server that keeps the exact bytes of each request head it receives (request line and header lines, names in the
 * case the client wrote them, up to the blank line), answers each with a fixed reply and closes. Shows what a client
 * puts on the wire, which a parsing server such as {@link TestTarget} normalises away. Plays an HTTP target as well
 * as an HTTP CONNECT proxy (reply {@code 502} to end the tunnel attempt once its request was seen).
 */
public final class RawRequestRecorder extends LoopbackFixture {

    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private final List<String> heads;
    private final List<InetAddress> peers;

    private RawRequestRecorder(byte[] reply, List<String> heads, List<InetAddress> peers) {
        super(
                "raw-request-recorder",
                channel -> channel.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                    private final StringBuilder received = new StringBuilder();

                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf bytes) {
                        received.append(bytes.toString(StandardCharsets.ISO_8859_1));
                        int end = received.indexOf("\r\n\r\n");
                        if (end >= 0 || received.length() > MAX_HEAD_BYTES) {
                            peers.add(((InetSocketAddress) ctx.channel().remoteAddress()).getAddress());
                            heads.add(received.substring(0, end >= 0 ? end + 4 : received.length()));
                            received.setLength(0);
                            ctx.writeAndFlush(Unpooled.wrappedBuffer(reply)).addListener(ChannelFutureListener.CLOSE);
                        }
                    }
                }));
        this.heads = heads;
        this.peers = peers;
    }

    /** Starts a recorder that answers every request with {@code reply} (ISO-8859-1 text) and closes. */
    public static RawRequestRecorder replying(String reply) {
        return new RawRequestRecorder(
                reply.getBytes(StandardCharsets.ISO_8859_1),
                new CopyOnWriteArrayList<>(),
                new CopyOnWriteArrayList<>());
    }

    /** The address each request head came from, in the order of {@link #heads()}. */
    public List<InetAddress> peers() {
        return List.copyOf(peers);
    }

    /** The request heads received so far, oldest first, each ending with its blank line. */
    public List<String> heads() {
        return List.copyOf(heads);
    }
}
