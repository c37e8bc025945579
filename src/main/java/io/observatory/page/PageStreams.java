package io.observatory.page;

import io.observatory.management.PartView;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.text.GoDuration;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import tools.jackson.databind.json.JsonMapper;

/**
 * The status page's live streams of server-sent events ({@code GET /status/api/stream}), one per open page. Every
 * {@link #BATCH_INTERVAL} the page's own thread reads the latest observation (as the {@link RttHistory} completed it),
 * the capabilities' parts with it, and sends each stream what changed in the page it shows since its previous event:
 * <ul>
 *   <li>{@code outbounds}: an {@link OutboundPage}, the whole page first, then its changed rows, the counts and, when
 *       it moved, the page's list of tags; whatever was published in between is coalesced (each row in its latest
 *       state), so a stream gets at most four of these a second ({@link #BATCHES_PER_SECOND}) however fast the
 *       writer publishes (at 10,000 outbounds probed on their own schedules, about 1,000 changes a second);
 *   <li>one event per capability part with a panel ({@link PartView}), named after the part, e.g. {@code mesh}: its
 *       {@link PartView#pageJson page data}, first unless the part is empty, then whenever it changed, at most once
 *       per its {@link PartView#pageInterval interval}; built once per value for every stream;
 *   <li>a comment after {@link #KEEP_ALIVE} without an event, so that proxies keep an idle stream open.
 * </ul>
 *
 * <p>The writer never waits for a client: it only publishes, and this thread reads. A stream holds no queue, only
 * what it last sent of its page (one entry per row, at most {@value PageQuery#MAX_LIMIT}): an event is built when
 * the stream can take one — its subscriber asks for one and its connection is writable — from the state of that
 * moment, so what a slow client missed is coalesced into its next event. A stream that has taken no event for its
 * stall limit while one was due is dropped (its connection closed, what it held discarded), so a stuck client holds
 * neither memory nor a connection for long; the page reconnects and starts from a snapshot. On shutdown every stream is completed, so the
 * HTTP server's graceful shutdown does not wait for them.
 *
 * <p>Costs per stream one entry per row of its page; per look at a changed observation, one pass over the outbounds
 * matching its prefix (all 10,000 for none) and the JSON of its changed rows. Nothing per outbound or per change.
 */
final class PageStreams {

    /** How often each stream is looked at: at most one {@code outbounds} event per stream per interval. */
    static final Duration BATCH_INTERVAL = Duration.ofMillis(250);

    /** {@code outbounds} events per stream and second, at most. */
    static final int BATCHES_PER_SECOND = (int) (Duration.ofSeconds(1).toMillis() / BATCH_INTERVAL.toMillis());

    /** The longest silence on a stream: a comment is sent after it. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    private static final Logger log = LoggerFactory.getLogger(PageStreams.class);
    private static final long NOT_STALLED = Long.MIN_VALUE;

    private final Scheduler page;
    private final RttHistory history;
    private final List<PartView<?>> views;
    private final Clock clock;
    private final JsonMapper json;
    private final Duration stallLimit;
    // Confined to the page thread below.
    private final Set<Stream> streams = new LinkedHashSet<>();
    private Scheduler.@Nullable Cancellable tick;
    private boolean closed;
    // Per part name, the page data last built and the value it was built from.
    private final Map<String, Built> built = new HashMap<>();

    /**
     * @param page       the page's own thread, on which every stream is served; its ticker paces the streams
     * @param history    the observation and RTT history the rows are read from
     * @param views      the capabilities' parts with a panel
     * @param clock      wall clock, for the events' {@code now}
     * @param json       writes the events' data
     * @param stallLimit how long a stream may take no event while one is due before it is dropped
     */
    PageStreams(
            Scheduler page,
            RttHistory history,
            List<PartView<?>> views,
            Clock clock,
            JsonMapper json,
            Duration stallLimit) {
        this.page = page;
        this.history = history;
        this.views = List.copyOf(views);
        this.clock = clock;
        this.json = json;
        this.stallLimit = stallLimit;
    }

    /**
     * A stream of the events of {@code query}'s page, starting with its snapshot (and the parts that are not empty).
     *
     * @param client     names the client in log lines, e.g. its address
     * @param connection the HTTP connection the stream goes out on
     */
    Flux<ServerSentEvent<String>> open(PageQuery query, String client, Connection connection) {
        return Flux.create(
                sink -> {
                    Stream stream = new Stream(query, client, sink, connection, page.nanoTime());
                    page.execute(() -> add(stream));
                    sink.onRequest(demand -> page.execute(() -> serve(stream)));
                    sink.onDispose(() -> page.execute(() -> streams.remove(stream)));
                },
                FluxSink.OverflowStrategy.ERROR);
    }

    /** Completes every stream and accepts no more; any thread. */
    void close() {
        page.execute(() -> {
            closed = true;
            List.copyOf(streams).forEach(stream -> stream.sink.complete());
            streams.clear();
            if (tick != null) {
                tick.cancel();
                tick = null;
            }
        });
    }

    /** The open streams; page thread. */
    int openStreams() {
        return streams.size();
    }

    private void add(Stream stream) {
        if (closed) {
            stream.sink.complete();
            return;
        }
        streams.add(stream);
        serve(stream);
        if (tick == null) {
            scheduleTick();
        }
    }

    private void scheduleTick() {
        tick = page.schedule(BATCH_INTERVAL, () -> {
            tick = null;
            List.copyOf(streams).forEach(this::serve);
            if (!streams.isEmpty() && !closed) {
                scheduleTick();
            }
        });
    }

    private void serve(Stream stream) {
        if (streams.contains(stream)) {
            stream.serve(page.nanoTime());
        }
    }

    /** The event data of {@code view}'s part, whose value is {@code value}, built once per value for every stream. */
    private <T> String data(PartView<T> view, Object value) {
        Built last = built.get(view.part().name());
        if (last == null || last.value() != value) {
            T typed = view.part().type().cast(value);
            last = new Built(value, json.writeValueAsString(view.pageJson(typed, clock.instant())));
            built.put(view.part().name(), last);
        }
        return last.json();
    }

    /** A part's page data as JSON, and the value it was built from (compared by identity). */
    private record Built(Object value, String json) {}

    /** What one stream sent last; page thread only. */
    private final class Stream {

        private final PageQuery query;
        private final String client;
        private final FluxSink<ServerSentEvent<String>> sink;
        private final Connection connection;
        private @Nullable Observation seen;
        private Map<String, Sent> sent = Map.of();
        private @Nullable List<String> window;
        private @Nullable OutboundWindow counted;
        // Per part name: the value last sent, and when (the page's ticker).
        private final Map<String, Object> partSeen = new HashMap<>();
        private final Map<String, Long> partSentAt = new HashMap<>();
        private long lastEventAt;
        private long stalledSince = NOT_STALLED;

        /** @param opened when the stream opened, on the page's ticker */
        Stream(
                PageQuery query,
                String client,
                FluxSink<ServerSentEvent<String>> sink,
                Connection connection,
                long opened) {
            this.query = query;
            this.client = client;
            this.sink = sink;
            this.connection = connection;
            this.lastEventAt = opened;
            for (PartView<?> view : views) {
                partSeen.put(view.part().name(), view.part().empty());
                partSentAt.put(view.part().name(), opened - view.pageInterval().toNanos());
            }
        }

        /** Sends what is due and wanted: rows, then the parts, else a keep-alive; drops the stream when stuck. */
        void serve(long now) {
            Observation observation = history.observation();
            boolean rowsDue = observation != seen;
            List<PartView<?>> partsDue = new ArrayList<>(0);
            for (PartView<?> view : views) {
                String name = view.part().name();
                if (observation.part(view.part()) != partSeen.get(name)
                        && now - partSentAt.get(name) >= view.pageInterval().toNanos()) {
                    partsDue.add(view);
                }
            }
            boolean keepAliveDue = now - lastEventAt >= KEEP_ALIVE.toNanos();
            if (!rowsDue && partsDue.isEmpty() && !keepAliveDue) {
                stalledSince = NOT_STALLED;
                return;
            }
            if (!ready()) {
                stalled(now);
                return;
            }
            stalledSince = NOT_STALLED;
            boolean sent = false;
            if (rowsDue) {
                OutboundPage batch = batch(observation);
                if (batch != null) {
                    emit(
                            ServerSentEvent.builder(json.writeValueAsString(batch))
                                    .event("outbounds")
                                    .build(),
                            now);
                    sent = true;
                }
            }
            for (PartView<?> view : partsDue) {
                if (!ready()) {
                    break;
                }
                String name = view.part().name();
                Object value = observation.part(view.part());
                partSeen.put(name, value);
                partSentAt.put(name, now);
                emit(ServerSentEvent.builder(data(view, value)).event(name).build(), now);
                sent = true;
            }
            if (!sent && keepAliveDue && ready()) {
                emit(ServerSentEvent.<String>builder().comment("keep-alive").build(), now);
            }
        }

        /** Whether the stream takes an event now: the subscriber asks for one and the connection is writable. */
        private boolean ready() {
            return sink.requestedFromDownstream() > 0 && connection.writable();
        }

        private void stalled(long now) {
            if (stalledSince == NOT_STALLED) {
                stalledSince = now;
            } else if (now - stalledSince >= stallLimit.toNanos()) {
                log.info(
                        "status page stream of {} dropped: it took no event for {} while one was due",
                        client,
                        GoDuration.format(stallLimit));
                streams.remove(this);
                connection.close();
                sink.complete();
            }
        }

        /**
         * The {@code outbounds} event for {@code observation}: the whole page the first time, then the rows that are
         * new to the page or changed (an entry or its RTT history replaced), the tags when they moved, the counts;
         * {@code null} when nothing of it changed.
         */
        private @Nullable OutboundPage batch(Observation observation) {
            OutboundWindow next = OutboundWindow.of(observation, query);
            Map<String, Sent> nowSent = new HashMap<>();
            List<OutboundRow> rows = new ArrayList<>();
            for (OutboundHealth outbound : next.outbounds()) {
                RttSamples samples = history.of(outbound.tag());
                Sent before = sent.get(outbound.tag());
                if (before == null || before.outbound() != outbound || before.samples() != samples) {
                    rows.add(OutboundRow.of(outbound, samples));
                }
                nowSent.put(outbound.tag(), new Sent(outbound, samples));
            }
            List<String> tags = next.tags();
            boolean moved = !tags.equals(window);
            boolean recounted = counted == null
                    || counted.total() != next.total()
                    || counted.matching() != next.matching()
                    || !counted.counts().equals(next.counts());
            seen = observation;
            sent = nowSent;
            window = tags;
            counted = next;
            if (rows.isEmpty() && !moved && !recounted) {
                return null;
            }
            return OutboundPage.of(next, query, moved ? tags : null, rows, clock.millis());
        }

        private void emit(ServerSentEvent<String> event, long now) {
            lastEventAt = now;
            sink.next(event);
        }
    }

    /** What a stream last sent of one row: its entry and RTT history, compared by identity. */
    private record Sent(OutboundHealth outbound, RttSamples samples) {}

    /** What a stream needs of the HTTP connection it goes out on. */
    interface Connection {

        /**
         * Whether it takes an event now: what it was given is on its way (Netty's outbound buffer is below its
         * high-water mark). Any thread.
         */
        boolean writable();

        /** Closes it, dropping what it still holds. */
        void close();
    }
}
