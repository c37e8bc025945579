package io.observatory.api;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.observatory.api.v1.WatchObservationResponse;
import io.observatory.snapshot.ObservationStore;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
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
    private final ExecutorService delivery;
    private final UnreadAnswers budget;
    private final Set<WatchStream> streams = ConcurrentHashMap.newKeySet();
    // volatile: set by the thread closing the context, read by gRPC threads opening streams after they registered
    // their stream, so every stream is either ended by the closing thread or sees the flag and ends itself.
    private volatile boolean shuttingDown;

    ObservationWatchers(ObservationStore store) {
        this(store, new UnreadAnswers(Long.MAX_VALUE));
    }

    /** @param budget bounds the bytes sent to clients that have not taken them yet, shared with unary answers */
    @Autowired
    ObservationWatchers(ObservationStore store, UnreadAnswers budget) {
        this.store = store;
        this.budget = budget;
        AtomicInteger threads = new AtomicInteger();
        this.delivery = Executors.newFixedThreadPool(DELIVERY_THREADS, runnable -> {
            Thread thread = new Thread(runnable, "watch-delivery-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
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
        WatchStream stream = new WatchStream(call, tagPrefixes, BUFFERED_EVENTS, delivery, budget, ended -> {
            streams.remove(ended);
            stop.run();
        });
        streams.add(stream);
        if (shuttingDown) {
            streams.remove(stream);
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
        shuttingDown = true;
        for (WatchStream stream : List.copyOf(streams)) {
            stream.end();
            streams.remove(stream);
        }
    }

    /** Stops the delivery threads; streams were ended when the context closed. */
    @Override
    public void destroy() {
        delivery.shutdownNow();
    }
}
