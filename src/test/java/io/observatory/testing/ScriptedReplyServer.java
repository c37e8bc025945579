package io.observatory.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.nio.charset.StandardCharsets;

/**
 * A misbehaving peer for hostile-input tests: on the first bytes a client sends it answers with a fixed reply, then
 * either closes or stays silent with the connection open. Plays broken proxies and broken HTTP servers.
 */
public final class ScriptedReplyServer extends LoopbackFixture {

    /** What the server does after writing its reply. */
    public enum Then {
        /** Close the connection. */
        CLOSE,
        /** Keep the connection open and never answer again. */
        STAY_SILENT
    }

    private ScriptedReplyServer(byte[] reply, Then then) {
        super(
                "scripted-reply",
                channel -> channel.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                    private boolean replied;

                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf request) {
                        if (replied) {
                            return;
                        }
                        replied = true;
                        var written = ctx.writeAndFlush(Unpooled.wrappedBuffer(reply));
                        if (then == Then.CLOSE) {
                            written.addListener(ChannelFutureListener.CLOSE);
                        }
                    }
                }));
    }

    /** Starts a server that answers {@code reply} (raw bytes) and then does {@code then}. */
    public static ScriptedReplyServer start(byte[] reply, Then then) {
        return new ScriptedReplyServer(reply, then);
    }

    /** Starts a server that answers {@code reply} (ISO-8859-1 text, e.g. an HTTP response) and then does {@code then}. */
    public static ScriptedReplyServer start(String reply, Then then) {
        return new ScriptedReplyServer(reply.getBytes(StandardCharsets.ISO_8859_1), then);
    }
}
