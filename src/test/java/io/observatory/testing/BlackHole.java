package io.observatory.testing;

/**
 * A TCP listener on {@code 127.0.0.1} that accepts every connection and then never reads or writes a byte: the
 * "target hangs" or "proxy hangs" peer. Connecting succeeds at once; a client then waits for an answer that never
 * comes, until its own timeout.
 *
 * <p>Accepted connections stay open (the kernel's receive buffer fills up, then the client's writes stall) until
 * {@link #close()}.
 */
public final class BlackHole extends LoopbackFixture {

    private BlackHole(int port) {
        super("black-hole", port, channel -> channel.config().setAutoRead(false));
    }

    /** Starts a black hole on an ephemeral port. */
    public static BlackHole start() {
        return new BlackHole(0);
    }

    /** Starts a black hole on {@code port}: where a target answered before, it now hangs. */
    public static BlackHole startOn(int port) {
        return new BlackHole(port);
    }
}
