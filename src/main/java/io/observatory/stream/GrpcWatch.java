package io.observatory.stream;

import io.grpc.stub.ServerCallStreamObserver;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * One server-streaming gRPC call fed by a producer: its {@link Pump} over the call, and its subscription to the
 * producer, cancelled once when the call ends by itself (refused, failed), is cancelled by its client, or is ended
 * here. The producer adds to the backlog and calls {@link #offered()}.
 *
 * @param <M> the response type
 */
public final class GrpcWatch<M> {

    private final Pump<M> pump;
    private final Subscription subscription = new Subscription();

    /**
     * Wires the call's callbacks; before the call method returns, as gRPC requires.
     *
     * @param backlog  what the producer queues for this call
     * @param delivery where the messages are built and sent, e.g. {@link StreamRegistry#delivery()}
     * @param gone    runs once the call has ended by itself or was cancelled, e.g. to unregister it
     */
    public GrpcWatch(
            ServerCallStreamObserver<M> call,
            Backlog<M> backlog,
            Executor delivery,
            Pump.Limits<M> limits,
            Runnable gone) {
        GrpcOutlet<M> outlet = new GrpcOutlet<>(call);
        this.pump = new Pump<>(outlet, backlog, delivery, limits, System::nanoTime, ended -> {
            gone.run();
            subscription.cancel();
        });
        outlet.connect(pump, () -> {
            gone.run();
            subscription.cancel();
        });
    }

    /** Keeps the producer's {@code cancel}, running it at once when the call has already ended. */
    public void subscribe(Runnable cancel) {
        subscription.set(cancel, pump);
    }

    /** The producer queued something. Any thread; never waits for the client. */
    public void offered() {
        pump.offered();
    }

    /** Whether the call has ended. */
    public boolean ended() {
        return pump.ended();
    }

    /** Stops the feed, drops what is queued, sends {@code finalMessage} when there is one and completes the call. */
    public void end(@Nullable M finalMessage) {
        subscription.cancel();
        pump.end(finalMessage);
    }
}
