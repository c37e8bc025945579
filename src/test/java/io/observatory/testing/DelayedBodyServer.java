package io.observatory.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP server whose response's first bytes and end arrive at different times: it answers the first bytes of each
 * connection with a {@code 200}, writing the status line and headers at once and the {@value #BODY_BYTES}-byte body a
 * fixed delay later. It records the {@link System#nanoTime()} readings (the clock of
 * {@link io.observatory.time.Ticker#system()}) at which it last received a request and last wrote a body, so that a
 * test can bound a client's measurement by causality: the client's span from sending its request to reading the body
 * is longer than the server's span from receiving that request to writing the body.
 */
public final class DelayedBodyServer extends LoopbackFixture {

    /** The body's length in bytes. */
    public static final int BODY_BYTES = 5;

    private static final byte[] HEAD =
            ("HTTP/1.1 200 OK\r\nContent-Length: " + BODY_BYTES + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);

    private final Readings readings;

    private DelayedBodyServer(Duration bodyDelay, Readings readings) {
        super(
                "delayed-body",
                channel -> channel.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                    private boolean answered;

                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf request) {
                        if (answered) {
                            return;
                        }
                        answered = true;
                        readings.requestReceived.set(System.nanoTime());
                        ctx.writeAndFlush(Unpooled.wrappedBuffer(HEAD));
                        ctx.executor()
                                .schedule(
                                        () -> {
                                            readings.bodyWritten.set(System.nanoTime());
                                            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[BODY_BYTES]));
                                        },
                                        bodyDelay.toNanos(),
                                        TimeUnit.NANOSECONDS);
                    }
                }));
        this.readings = readings;
    }

    /** Starts a server that writes each body {@code bodyDelay} after the headers. */
    public static DelayedBodyServer start(Duration bodyDelay) {
        return new DelayedBodyServer(bodyDelay, new Readings());
    }

    /** Returns the URL of {@code path} on this server, by IP literal. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** Whether the body answering the last request has been written. */
    public boolean bodyWritten() {
        long received = readings.requestReceived.get();
        return received != Readings.UNSET && readings.bodyWritten.get() >= received;
    }

    /**
     * Returns the nanoseconds from receiving the last request to writing its body.
     *
     * @throws IllegalStateException when that body has not been written yet
     */
    public long requestToBodyNanos() {
        if (!bodyWritten()) {
            throw new IllegalStateException("no body written since the last request");
        }
        return readings.bodyWritten.get() - readings.requestReceived.get();
    }

    /** The server's readings; written on its event loop, read by the test. */
    private static final class Readings {
        private static final long UNSET = Long.MIN_VALUE;
        private final AtomicLong requestReceived = new AtomicLong(UNSET);
        private final AtomicLong bodyWritten = new AtomicLong(UNSET);
    }
}
