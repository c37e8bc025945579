package io.observatory.mesh.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.observatory.api.UnreadAnswers;
import io.observatory.mesh.api.v1.GetMeshResponse;
import io.observatory.mesh.hub.MeshView;
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
 * The open {@code WatchMesh} streams. Each hears the view on the writer when its judgement changes (with the matrix:
 * when the view changes) and sends, when the transport is ready, the whole view the first time and then what changed
 * since the view it sent last ({@link MeshProtos#changes}), through its {@link Pump} with a conflating backlog
 * ({@link Latest}): a slow client gets the changes of several views merged in one message, never falls behind, and
 * holds at most one pending message. Messages are numbered along each stream ({@code version}, {@code base_version});
 * a message is built once for every stream that is at the same view, on one {@code mesh-watch} thread or gRPC's
 * on-ready callback. On shutdown (the context closing, before the gRPC server stops) every stream is completed.
 *
 * <p>A change costs O(servers + witnesses) reference comparisons and carries only what changed: one server's verdict,
 * its route's server list and the standings that moved with it, a few hundred bytes plus about 7 bytes a server of
 * its route; the first message is the
 * whole view (about 300 bytes a server, 100 a witness, and with the matrix 60 bytes a cell). What a stream sent
 * counts against the server's bound of answers its clients have not read yet ({@link UnreadAnswers}, shared with the
 * unary answers and {@code WatchObservation}) until its transport is ready again: a stream whose next message would
 * exceed it ends with {@code RESOURCE_EXHAUSTED}, and its client watches again.
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

    /**
     * Opens a stream: the whole view now, then what changed each time the judgement changes.
     *
     * @param paths whether the stream carries the matrix too (and a message after every report)
     */
    void watch(ServerCallStreamObserver<GetMeshResponse> call, boolean paths) {
        Stream stream = new Stream(call, paths);
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

    /**
     * The message that brings a client from {@code from} to {@code to} ({@code from} null: the whole of {@code to}),
     * without its version numbers; built once for every stream making the same step.
     */
    @SuppressWarnings("ReferenceEquality") // each view is published once: the same view is the same reference
    private GetMeshResponse message(@Nullable MeshView from, MeshView to, boolean paths) {
        Built last = built.get();
        if (last != null && last.from() == from && last.to() == to && last.paths() == paths) {
            return last.message();
        }
        GetMeshResponse message =
                (from == null ? MeshProtos.view(to, paths) : MeshProtos.changes(from, to, paths)).build();
        built.set(new Built(from, to, paths, message));
        return message;
    }

    /** A step from one view to another and its message. */
    private record Built(@Nullable MeshView from, MeshView to, boolean paths, GetMeshResponse message) {}

    /** One stream: its call, what it was offered last (writer) and what it sent last (whoever sends). */
    private final class Stream {

        private final Latest<GetMeshResponse> backlog = new Latest<>();
        private final GrpcWatch<GetMeshResponse> watch;
        private final boolean paths;
        private @Nullable MeshView offered;
        // Read and written only where a message is taken, one thread at a time (the pump's): the view the client
        // holds and its version. A taken message is sent or ends the stream (later refusals end it), so the client
        // holds what was taken.
        private @Nullable MeshView sent;
        private long version;

        Stream(ServerCallStreamObserver<GetMeshResponse> call, boolean paths) {
            this.paths = paths;
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

        /**
         * On the writer: keeps {@code view} when it is the first, or its judgement or its fleet (a server's entry
         * points, a witness's site) changed; with the matrix, whenever the view changed.
         */
        @SuppressWarnings("ReferenceEquality") // each view and fleet is built once: another one is another reference
        void offer(MeshView view) {
            MeshView before = offered;
            if (before != null
                    && (paths
                            ? before == view
                            : before.fleet() == view.fleet()
                                    && before.judgement().equals(view.judgement()))) {
                return;
            }
            offered = view;
            backlog.offer(() -> take(view));
            watch.offered();
        }

        private GetMeshResponse take(MeshView view) {
            GetMeshResponse message = message(sent, view, paths).toBuilder()
                    .setVersion(version + 1)
                    .setBaseVersion(sent == null ? 0 : version)
                    .build();
            sent = view;
            version++;
            return message;
        }
    }
}
