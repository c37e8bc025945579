package io.observatory.stream;

import io.grpc.Status;

/**
 * Where a stream's messages go: a gRPC server call ({@link GrpcOutlet}) or an HTTP response of server-sent events.
 * Called by one thread at a time, the stream's {@link Pump}.
 *
 * @param <M> the message type
 */
public interface Outlet<M> {

    /** Whether it takes a message now: the transport's flow control says the previous ones have left. */
    boolean ready();

    /** Whether the client left. */
    boolean cancelled();

    /** Sends one message; only when {@link #ready()}. */
    void send(M message);

    /** Ends the stream normally. */
    void complete();

    /** Ends the stream with {@code status}, not OK: {@code RESOURCE_EXHAUSTED} for a refused message, else a failure. */
    void fail(Status status);
}
