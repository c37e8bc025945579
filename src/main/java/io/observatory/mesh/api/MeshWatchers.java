package io.observatory.mesh.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.UnreadAnswers;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.snapshot.ObservationStore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Component;

/**
 * The open {@code WatchMesh} streams. Each hears the view on the writer when its judgement changes and sends the
 * latest one when the transport is ready: a slow client skips views, never falls behind, and holds at most one
 * pending view (conflation: a view is the whole state). Messages are built, once per view for every stream, and sent
 * on one {@code mesh-watch} thread. On shutdown (the context closing, before the gRPC server stops) every stream is completed.
 *
 * <p>What a stream sent counts against the server's bound of answers its clients have not read yet
 * ({@link UnreadAnswers}, shared with the unary answers and {@code WatchObservation}) until its transport is ready
 * again: a stream whose view would exceed it ends with {@code RESOURCE_EXHAUSTED} (a later view too: waiting would
 * leave the client on a stale view until the judgement changes again), and its client watches again. A 100 × 100
 * mesh's view is about 380 KB, so a few hundred streams that read nothing would otherwise hold a small heap's direct
 * memory.
 */
@Component
public class MeshWatchers implements ApplicationListener<ContextClosedEvent>, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(MeshWatchers.class);

    private final ObservationStore store;
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "mesh-watch");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
    // The message of the latest view sent, built once and shared by every stream; delivery thread only.
    private @Nullable MeshView builtView;
    private @Nullable GetMeshResponse built;
    private volatile boolean shuttingDown;

    private final UnreadAnswers budget;

    /** @param budget bounds the bytes sent to clients that have not taken them yet, shared with the other answers */
    MeshWatchers(ObservationStore store, UnreadAnswers budget) {
        this.store = store;
        this.budget = budget;
    }

    /** Opens a stream: the whole view now, then each view whose judgement changed. */
    void watch(ServerCallStreamObserver<GetMeshResponse> call) {
        Stream stream = new Stream(call);
        streams.add(stream);
        if (shuttingDown) {
            streams.remove(stream);
            stream.end();
            return;
        }
        call.setOnCancelHandler(() -> {
            streams.remove(stream);
            stream.unsubscribe();
            stream.cancelled();
        });
        call.setOnReadyHandler(stream::drain);
        stream.subscribe(store.watchPart(MeshView.PART, stream::offer));
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        shuttingDown = true;
        for (Stream stream : streams) {
            streams.remove(stream);
            stream.end();
        }
    }

    /** Lets the streams' last messages and completions go out (briefly), then stops the delivery thread. */
    @Override
    public void destroy() throws InterruptedException {
        delivery.shutdown();
        if (!delivery.awaitTermination(1, TimeUnit.SECONDS)) {
            delivery.shutdownNow();
        }
    }

    /** The message of {@code view}, built once for all streams (a 100 × 100 mesh's is about 380 KB). */
    private GetMeshResponse message(MeshView view) {
        if (view != builtView || built == null) {
            built = MeshProtos.view(view);
            builtView = view;
        }
        return built;
    }

    /** One stream: the latest view not sent yet, and the judgement sent last (writer only). */
    private final class Stream {

        private final ServerCallStreamObserver<GetMeshResponse> call;
        private final AtomicReference<@Nullable MeshView> pending = new AtomicReference<>();
        private final AtomicBoolean ended = new AtomicBoolean();
        private final AtomicReference<@Nullable Runnable> unsubscribe = new AtomicReference<>();
        private @Nullable MeshJudgement sentJudgement;
        private boolean first = true;
        // Bytes of the last message sent, held in the budget until the transport is ready again; any thread releases.
        private final AtomicLong held = new AtomicLong();
        // Delivery thread only: whether a message went out.
        private boolean sentAny;

        Stream(ServerCallStreamObserver<GetMeshResponse> call) {
            this.call = call;
        }

        /** On the writer: keeps {@code view} when it is the first or its judgement changed. */
        void offer(MeshView view) {
            if (!first && view.judgement().equals(sentJudgement)) {
                return;
            }
            first = false;
            sentJudgement = view.judgement();
            pending.set(view);
            drain();
        }

        /** Keeps the subscription to the store, cancelling it at once when the stream has already ended. */
        void subscribe(Runnable cancel) {
            unsubscribe.set(cancel);
            if (ended.get()) {
                unsubscribe();
            }
        }

        void unsubscribe() {
            Runnable cancel = unsubscribe.getAndSet(null);
            if (cancel != null) {
                cancel.run();
            }
        }

        void drain() {
            deliver(() -> {
                if (ended.get() || !call.isReady()) {
                    return;
                }
                // The call is ready: what this stream sent before has left its buffer, whether a view is pending or
                // not (the on-ready callback after a large view finds none).
                releaseHeld();
                MeshView view = pending.getAndSet(null);
                if (view == null) {
                    return;
                }
                GetMeshResponse message = message(view);
                long size = message.getSerializedSize();
                if (!budget.tryHold(size)) {
                    refuse(sentAny ? "this stream's next view" : "this stream's first view", size);
                    return;
                }
                held.set(size);
                sentAny = true;
                call.onNext(message);
                if (call.isReady()) {
                    // Below gRPC's on-ready threshold: no callback will say it left, and it is as good as sent.
                    releaseHeld();
                }
            });
        }

        void releaseHeld() {
            budget.release(held.getAndSet(0));
        }

        /**
         * The client cancelled: the stream ends and gives back what it holds, under the delivery task's lock, so a
         * view being sent now is either released here or never held.
         */
        void cancelled() {
            synchronized (this) {
                ended.set(true);
                releaseHeld();
            }
        }

        /**
         * Ends a stream whose view the budget refused: a view is the whole state, so a later one would leave the
         * client on a stale one until the judgement changes again; the client watches again after a moment and
         * starts from the current view.
         */
        private void refuse(String what, long size) {
            ended.set(true);
            streams.remove(this);
            unsubscribe();
            if (!call.isCancelled()) {
                call.onError(budget.refusal(what + " of " + size + " bytes").asRuntimeException());
            }
        }

        void end() {
            unsubscribe();
            deliver(() -> {
                if (ended.compareAndSet(false, true)) {
                    call.onCompleted();
                }
                releaseHeld();
            });
        }

        /** Runs {@code task} on the delivery thread, one at a time for this stream; a failure is logged. */
        private void deliver(Runnable task) {
            try {
                delivery.execute(() -> {
                    synchronized (this) {
                        try {
                            task.run();
                        } catch (RuntimeException e) {
                            log.warn("WatchMesh stream failed; it ends", e);
                            ended.set(true);
                            streams.remove(this);
                            unsubscribe();
                            releaseHeld();
                        }
                    }
                });
            } catch (RejectedExecutionException e) {
                // The delivery thread has stopped (the context is closing): nothing more goes out on this stream.
                ended.set(true);
            }
        }
    }
}
