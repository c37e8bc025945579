package io.observatory.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.snapshot.ObservationStore;
import io.observatory.stream.StreamRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Component;

/**
 * The open {@code WatchObservation} streams. Each stream starts from the observation on the writer and then
 * hears every publication, buffered per stream (see {@link WatchStream}); messages are built and sent by two
 * {@code watch-delivery} threads shared by all streams. On shutdown (the context closing, before the gRPC server
 * stops) every stream receives a final {@code ServingEnded} event and is completed.
 */
@Component
public class ObservationWatchers implements ApplicationListener<ContextClosedEvent>, DisposableBean {

    /** Events one stream may have queued before it is resynchronised with a snapshot. */
    static final int BUFFERED_EVENTS = 1_024;

    /** Threads that build and send watch messages, shared by all streams. */
    static final int DELIVERY_THREADS = 2;

    private final ObservationStore store;
    private final UnreadAnswers budget;
    private final StreamRegistry<WatchStream> streams = new StreamRegistry<>("watch-delivery", DELIVERY_THREADS);

    ObservationWatchers(ObservationStore store) {
        this(store, new UnreadAnswers(Long.MAX_VALUE));
    }

    /** @param budget bounds the bytes sent to clients that have not taken them yet, shared with unary answers */
    @Autowired
    ObservationWatchers(ObservationStore store, UnreadAnswers budget) {
        this.store = store;
        this.budget = budget;
    }

    /**
     * Opens a stream for {@code responses}: the full observation of the outbounds matching {@code tagPrefixes} (all
     * for none), then their changes.
     *
     * @param tagPrefixes validated tag prefixes
     * @param responses   the call's observer; must be a {@link ServerCallStreamObserver} (it is, for a gRPC call)
     */
    public void watch(List<String> tagPrefixes, StreamObserver<WatchObservationResponse> responses) {
        ServerCallStreamObserver<WatchObservationResponse> call =
                (ServerCallStreamObserver<WatchObservationResponse>) responses;
        // Subscribed below, once the stream is registered; a stream that ends by itself unsubscribes with it.
        AtomicReference<Runnable> unsubscribe = new AtomicReference<>(() -> {});
        Runnable stop =
                () -> Objects.requireNonNull(unsubscribe.get(), "set at once").run();
        WatchStream stream = new WatchStream(call, tagPrefixes, BUFFERED_EVENTS, streams.delivery(), budget, ended -> {
            streams.remove(ended);
            stop.run();
        });
        if (!streams.add(stream)) {
            stream.end();
            return;
        }
        unsubscribe.set(store.watch(stream::start, stream::offer));
        if (stream.ended()) {
            // Refused before the subscription was set (its first message, on a delivery thread): its stop found none.
            stop.run();
        }
        call.setOnCancelHandler(() -> {
            streams.remove(stream);
            stop.run();
            stream.cancelled();
        });
        call.setOnReadyHandler(stream::onReady);
    }

    /** Number of open streams. */
    int openStreams() {
        return streams.size();
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        streams.endAll(WatchStream::end);
    }

    /** Lets the streams' last messages go out (briefly), then stops the delivery threads. */
    @Override
    public void destroy() throws InterruptedException {
        streams.stop(Duration.ofSeconds(1));
    }
}
