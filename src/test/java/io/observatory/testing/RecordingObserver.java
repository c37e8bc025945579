package io.observatory.testing;

import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link StreamObserver} that records what a call delivered, safe to read from the test thread while gRPC threads
 * deliver: the values in order, the error if any, and whether the call completed.
 *
 * @param <T> the message type
 */
public class RecordingObserver<T> implements StreamObserver<T> {

    private final List<T> values = new CopyOnWriteArrayList<>();
    // volatile: written by a gRPC thread, read by the test thread.
    private volatile Throwable error;
    // volatile: written by a gRPC thread, read by the test thread.
    private volatile boolean completed;

    @Override
    public void onNext(T value) {
        values.add(value);
    }

    @Override
    public void onError(Throwable t) {
        error = t;
    }

    @Override
    public void onCompleted() {
        completed = true;
    }

    /** The values received so far, in order; a live view. */
    public List<T> values() {
        return values;
    }

    /** The error the call ended with, or {@code null}. */
    public Throwable error() {
        return error;
    }

    /** Whether the call completed normally. */
    public boolean completed() {
        return completed;
    }
}
