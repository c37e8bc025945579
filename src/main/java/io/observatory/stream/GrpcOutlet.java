package io.observatory.stream;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * A server-streaming gRPC call as an outlet: ready while gRPC's outbound flow control says so ({@code isReady}), and
 * its on-ready and cancel callbacks wired to the stream's {@link Pump} by {@link #connect}.
 *
 * @param <M> the response type
 */
public final class GrpcOutlet<M> implements Outlet<M> {

    private final ServerCallStreamObserver<M> call;

    public GrpcOutlet(ServerCallStreamObserver<M> call) {
        this.call = call;
    }

    /**
     * Wires the call's callbacks: on-ready sends what is due, a cancel drops the stream and runs {@code onCancel}.
     * Before the call method returns, as gRPC requires.
     */
    public void connect(Pump<M> pump, Runnable onCancel) {
        call.setOnReadyHandler(pump::ready);
        call.setOnCancelHandler(() -> {
            pump.cancelled();
            onCancel.run();
        });
    }

    @Override
    public boolean ready() {
        return call.isReady();
    }

    @Override
    public boolean cancelled() {
        return call.isCancelled();
    }

    @Override
    public void send(M message) {
        call.onNext(message);
    }

    @Override
    public void complete() {
        call.onCompleted();
    }

    @Override
    public void fail(Status status) {
        call.onError(status.asRuntimeException());
    }
}
