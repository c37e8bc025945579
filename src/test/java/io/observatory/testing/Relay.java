package io.observatory.testing;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies every message read on one channel to a peer channel, and closes the peer (after flushing) when this side
 * closes; installed on both sides it forms a proxy tunnel.
 *
 * <p>Back-pressure: reading on the peer pauses while this channel is not writable. A write failure closes the peer,
 * which in turn closes this side.
 */
final class Relay extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(Relay.class);

    private final Channel peer;

    Relay(Channel peer) {
        this.peer = peer;
    }

    /**
     * Opens a tunnel between a client channel and a target channel whose pipeline already ends in a relay to the client
     * (see {@link TargetDialer}): gives the client a relay to the target and resumes reading on both sides.
     */
    static void join(Channel client, Channel target) {
        client.pipeline().addLast(new Relay(target));
        if (!client.isActive()) {
            // The client left before its relay was added, so no channelInactive will close the target for it.
            closeOnFlush(target);
            return;
        }
        client.config().setAutoRead(true);
        target.config().setAutoRead(true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // write() takes ownership of msg and releases it, also when the peer is already closed. A failure is fired into
        // the peer's pipeline, where its relay logs it and closes the peer; the peer's channelInactive then closes us.
        peer.write(msg).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        peer.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        peer.config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closeOnFlush(peer);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("relay {} <-> {} failed, closing both sides", ctx.channel(), peer, cause);
        closeOnFlush(ctx.channel());
    }

    /** Closes {@code channel} once everything already written to it has been flushed. */
    static void closeOnFlush(Channel channel) {
        if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }
}
