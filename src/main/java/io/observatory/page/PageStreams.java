package io.observatory.page;

import io.grpc.Status;
import io.observatory.management.PartView;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.stream.Backlog;
import io.observatory.stream.Outlet;
import io.observatory.stream.Pump;
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
 *       {@link PartView#pageJson page data} whole, first unless the part is empty, then whenever it changed, at most
 *       once per its {@link PartView#pageInterval interval}, what changed since the data the stream holds
 *       ({@link PartView#pageChanges}) or, for a part that does not say, the whole data again; each built once per
 *       value (or pair) for every stream ({@link PanelEvents});
 *   <li>a comment after {@link #KEEP_ALIVE} without an event, so that proxies keep an idle stream open.
 * </ul>
 *
 * <p>The writer never waits for a client: it only publishes, and this thread reads. Each stream is a {@link Pump} whose
 * backlog holds no queue, only what it last sent of its page (one entry per row, at most
 * {@value PageQuery#MAX_LIMIT}): an event is built when the stream can take one — its subscriber asks for one and its
 * connection is writable — from the state of that moment, so what a slow client missed is coalesced into its next
 * event. A stream that has taken no event for its
 * stall limit while one was due is dropped (its connection closed, what it held discarded), so a stuck client holds
 * neither memory nor a connection for long; the page reconnects and starts from a snapshot. On shutdown every stream is
 * completed, so the HTTP server's graceful shutdown does not wait for them.
 *
 * <p>Costs per stream one entry per row of its page and, per panel, a reference to the data it last sent (shared by
 * the streams that keep up); per look at a changed observation, one pass over the outbounds matching its prefix (all
 * 10,000 for none) and the JSON of its changed rows. Nothing per outbound or per change.
 */
final class PageStreams {

    /** How often each stream is looked at: at most one {@code outbounds} event per stream per interval. */
    static final Duration BATCH_INTERVAL = Duration.ofMillis(250);

    /** {@code outbounds} events per stream and second, at most. */
    static final int BATCHES_PER_SECOND = (int) (Duration.ofSeconds(1).toMillis() / BATCH_INTERVAL.toMillis());

    /** The longest silence on a stream: a comment is sent after it. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    private static final Logger log = LoggerFactory.getLogger(PageStreams.class);

    private final Scheduler page;
    private final RttHistory history;
    private final List<PanelEvents<?, ?>> panels;
    private final Clock clock;
    private final JsonMapper json;
    private final Duration stallLimit;
    // Confined to the page thread below.
    private final Set<Stream> streams = new LinkedHashSet<>();
    private Scheduler.@Nullable Cancellable tick;
    private boolean closed;

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
            List<PartView<?, ?>> views,
            Clock clock,
            JsonMapper json,
            Duration stallLimit) {
        this.page = page;
        this.history = history;
        this.clock = clock;
        this.json = json;
        this.stallLimit = stallLimit;
        this.panels = views.stream()
                .<PanelEvents<?, ?>>map(view -> new PanelEvents<>(view, clock, json))
                .toList();
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
                    sink.onRequest(demand -> page.execute(stream.pump::ready));
                    sink.onDispose(() -> page.execute(() -> {
                        streams.remove(stream);
                        stream.pump.cancelled();
                    }));
                },
                FluxSink.OverflowStrategy.ERROR);
    }

    /** Completes every stream and accepts no more; any thread. */
    void close() {
        page.execute(() -> {
            closed = true;
            List.copyOf(streams).forEach(stream -> stream.pump.end(null));
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
            stream.pump.end(null);
            return;
        }
        streams.add(stream);
        stream.pump.ready();
        if (tick == null) {
            scheduleTick();
        }
    }

    /** Every {@link #BATCH_INTERVAL}: drops the streams stalled for their limit, and serves the others. */
    private void scheduleTick() {
        tick = page.schedule(BATCH_INTERVAL, () -> {
            tick = null;
            for (Stream stream : List.copyOf(streams)) {
                if (stream.pump.stalledFor(stallLimit)) {
                    stream.drop();
                } else {
                    stream.outboundsDue = true;
                    stream.pump.ready();
                }
            }
            if (!streams.isEmpty() && !closed) {
                scheduleTick();
            } else {
                panels.forEach(PanelEvents::forget);
            }
        });
    }

    /**
     * One stream: its pump, and as its backlog what it last sent of its page; page thread only. What is due is read
     * from the state of the moment: the rows when the observation changed, each part when it changed and its interval
     * passed, else a keep-alive after {@link #KEEP_ALIVE} without an event.
     */
    private final class Stream implements Backlog<ServerSentEvent<String>> {

        private final PageQuery query;
        private final String client;
        private final Connection connection;
        private final Pump<ServerSentEvent<String>> pump;
        private @Nullable Observation seen;
        private Map<String, Sent> sent = Map.of();
        private @Nullable List<String> window;
        private @Nullable OutboundWindow counted;
        // Per panel, in the order of the panels: what the stream last sent of it.
        private final List<PanelEvents.Slot> slots;
        private long lastEventAt;
        // Set by each tick, cleared when the rows are looked at: a subscriber's demand between ticks sends the parts
        // and keep-alives due but never a second outbounds event in one interval.
        private boolean outboundsDue = true;
        private @Nullable ServerSentEvent<String> putBack;

        /** @param opened when the stream opened, on the page's ticker */
        Stream(
                PageQuery query,
                String client,
                FluxSink<ServerSentEvent<String>> sink,
                Connection connection,
                long opened) {
            this.query = query;
            this.client = client;
            this.connection = connection;
            this.lastEventAt = opened;
            this.slots = panels.stream().map(panel -> panel.slot(opened)).toList();
            this.pump = new Pump<>(
                    new SseOutlet(sink, connection),
                    this,
                    page::execute,
                    Pump.Limits.unbounded("the status page's data could not be sent"),
                    page,
                    ended -> streams.remove(this));
        }

        /** Drops a stream that took no event for its stall limit: its connection closes, what it held goes. */
        void drop() {
            log.info(
                    "status page stream of {} dropped: it took no event for {} while one was due",
                    client,
                    GoDuration.format(stallLimit));
            streams.remove(this);
            connection.close();
            pump.end(null);
        }

        @Override
        public boolean isEmpty() {
            long now = page.nanoTime();
            Observation observation = history.observation();
            return putBack == null
                    && (observation == seen || !outboundsDue)
                    && slots.stream().noneMatch(slot -> slot.due(observation, now))
                    && now - lastEventAt < KEEP_ALIVE.toNanos();
        }

        /** The next event due: the rows, then each part, else a keep-alive; {@code null} when none is. */
        @Override
        public @Nullable ServerSentEvent<String> take() {
            long now = page.nanoTime();
            ServerSentEvent<String> event = putBack;
            putBack = null;
            Observation observation = history.observation();
            if (event == null && outboundsDue && observation != seen) {
                outboundsDue = false;
                OutboundPage batch = batch(observation);
                if (batch != null) {
                    event = ServerSentEvent.builder(json.writeValueAsString(batch))
                            .event("outbounds")
                            .build();
                }
            }
            for (int i = 0; event == null && i < slots.size(); i++) {
                PanelEvents.Slot slot = slots.get(i);
                if (slot.due(observation, now)) {
                    event = slot.take(observation, now);
                }
            }
            if (event == null && now - lastEventAt >= KEEP_ALIVE.toNanos()) {
                event = ServerSentEvent.<String>builder().comment("keep-alive").build();
            }
            if (event != null) {
                lastEventAt = now;
            }
            return event;
        }

        @Override
        public void putBack(ServerSentEvent<String> event) {
            putBack = event;
        }

        @Override
        public void clear() {
            putBack = null;
        }

        /**
         * The {@code outbounds} event for {@code observation}: the whole page the first time, then the rows that are
         * new to the page or changed (an entry or its RTT history replaced), the tags when they moved, the counts;
         * {@code null} when nothing of it changed.
         */
        @SuppressWarnings("ReferenceEquality") // a replaced entry or history is a changed row: identity says it
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
    }

    /**
     * A stream's HTTP response as an outlet: ready while its subscriber asks for an event and its connection is
     * writable; a failure closes the connection.
     */
    private record SseOutlet(FluxSink<ServerSentEvent<String>> sink, Connection connection)
            implements Outlet<ServerSentEvent<String>> {

        @Override
        public boolean ready() {
            return sink.requestedFromDownstream() > 0 && connection.writable();
        }

        @Override
        public boolean cancelled() {
            return sink.isCancelled();
        }

        @Override
        public void send(ServerSentEvent<String> event) {
            sink.next(event);
        }

        @Override
        public void complete() {
            sink.complete();
        }

        @Override
        public void fail(Status status) {
            connection.close();
            sink.complete();
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
