package io.observatory.mesh.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.UnreadAnswers;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.hub.MeshView;
import io.observatory.mesh.judge.MeshJudgement;
import io.observatory.snapshot.ObservationStore;
import io.observatory.stream.GrpcWatch;
import io.observatory.stream.Latest;
import io.observatory.stream.Pump;
import io.observatory.stream.StreamRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Component;

/**
 * The open {@code WatchMesh} streams. Each hears the view on the writer when its judgement changes and sends the
 * latest one when the transport is ready, through its {@link Pump} with a conflating backlog ({@link Latest}): a slow
 * client skips views, never falls behind, and holds at most one pending view (a view is the whole state). Messages
 * are built once per view for every stream, and sent on one {@code mesh-watch} thread or gRPC's on-ready callback. On
 * shutdown (the context closing, before the gRPC server stops) every stream is completed.
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

    private final ObservationStore store;
    private final StreamRegistry<Stream> streams = new StreamRegistry<>("mesh-watch", 1);
    // The message of the latest view built, shared by every stream; replaced whole by whichever thread builds.
    private final AtomicReference<@Nullable Built> built = new AtomicReference<>();

    private final UnreadAnswers budget;

    /** @param budget bounds the bytes sent to clients that have not taken them yet, shared with the other answers */
    MeshWatchers(ObservationStore store, UnreadAnswers budget) {
        this.store = store;
        this.budget = budget;
    }

    /** Opens a stream: the whole view now, then each view whose judgement changed. */
    void watch(ServerCallStreamObserver<GetMeshResponse> call) {
        Stream stream = new Stream(call);
        if (!streams.add(stream)) {
            stream.watch.end(null);
            return;
        }
        stream.watch.subscribe(store.watchPart(MeshView.PART, stream::offer));
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        streams.endAll(stream -> stream.watch.end(null));
    }

    /** Lets the streams' last messages and completions go out (briefly), then stops the delivery thread. */
    @Override
    public void destroy() throws InterruptedException {
        streams.stop(Duration.ofSeconds(1));
    }

    /** The message of {@code view}, built once for all streams (a 100 × 100 mesh's is about 380 KB). */
    @SuppressWarnings("ReferenceEquality") // each view is published once: the same view is the same reference
    private GetMeshResponse message(MeshView view) {
        Built last = built.get();
        if (last != null && last.view() == view) {
            return last.message();
        }
        Built next = new Built(view, MeshProtos.view(view));
        built.set(next);
        return next.message();
    }

    /** A view and its message. */
    private record Built(MeshView view, GetMeshResponse message) {}

    /** One stream: its call, and the judgement sent last (writer only). */
    private final class Stream {

        private final Latest<GetMeshResponse> backlog = new Latest<>();
        private final GrpcWatch<GetMeshResponse> watch;
        private @Nullable MeshJudgement sentJudgement;
        private boolean first = true;

        Stream(ServerCallStreamObserver<GetMeshResponse> call) {
            this.watch = new GrpcWatch<>(
                    call,
                    backlog,
                    streams.delivery(),
                    new Pump.Limits<>(
                            budget,
                            GetMeshResponse::getSerializedSize,
                            true,
                            "view",
                            "the mesh view could not be sent"),
                    () -> streams.remove(this));
        }

        /** On the writer: keeps {@code view} when it is the first or its judgement changed. */
        void offer(MeshView view) {
            if (!first && view.judgement().equals(sentJudgement)) {
                return;
            }
            first = false;
            sentJudgement = view.judgement();
            backlog.offer(() -> message(view));
            watch.offered();
        }
    }
}
