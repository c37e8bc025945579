package io.observatory.page;

import io.netty.channel.ChannelOption;
import io.observatory.management.PartView;
import io.observatory.text.QuotedText;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * Answers the status page's requests: the page itself, a page of outbounds and each capability part's panel data as
 * JSON, the list of panels, and the live stream. Data responses are never cached ({@code Cache-Control: no-store}); a
 * bad query string is answered {@code 400} with the reason as JSON, e.g. {@code {"reason": "limit: 0 (expected:
 * 1-500)"}}.
 */
final class StatusPageHandler {

    /** The kernel send buffer of a live stream's connection, in bytes. */
    static final int SEND_BUFFER_BYTES = 64 * 1024;

    /** The page, from the jar. */
    static final Resource PAGE = new ClassPathResource("status-page/index.html");

    private final RttHistory history;
    private final List<PartView<?, ?>> views;
    private final PageStreams streams;
    private final Clock clock;

    StatusPageHandler(RttHistory history, List<PartView<?, ?>> views, PageStreams streams, Clock clock) {
        this.history = history;
        this.views = List.copyOf(views);
        this.streams = streams;
        this.clock = clock;
    }

    /** {@code GET /status}: the page, which loads its script and style and then streams its data. */
    Mono<ServerResponse> page(ServerRequest request) {
        return ServerResponse.ok()
                .contentType(MediaType.TEXT_HTML)
                .cacheControl(CacheControl.noCache())
                .bodyValue(PAGE);
    }

    /** {@code GET /status/api/outbounds}: one {@link OutboundPage} snapshot of the query's page. */
    Mono<ServerResponse> outbounds(ServerRequest request) {
        return withQuery(
                request,
                query -> data(MediaType.APPLICATION_JSON)
                        .bodyValue(OutboundPage.snapshot(
                                OutboundWindow.of(history.observation(), query), query, history, clock.millis())));
    }

    /** {@code GET /status/assets/panels.json}: the names of the parts with a panel, in the order the page shows them. */
    Mono<ServerResponse> panels(ServerRequest request) {
        return data(MediaType.APPLICATION_JSON)
                .bodyValue(views.stream().map(view -> view.part().name()).toList());
    }

    /** {@code GET /status/api/<name>}: the panel data of the part {@code view} shows. */
    <T> Mono<ServerResponse> part(PartView<T, ?> view) {
        T value = history.observation().part(view.part());
        return data(MediaType.APPLICATION_JSON).bodyValue(view.pageJson(value, clock.instant()));
    }

    /** {@code GET /status/api/<name>/<key>}: one item of a panel's data in detail, or 404 naming the item. */
    <T> Mono<ServerResponse> detail(PartView<T, ?> view, String key) {
        T value = history.observation().part(view.part());
        Object detail = view.pageDetail(value, key, clock.instant());
        return detail == null
                ? ServerResponse.status(HttpStatus.NOT_FOUND)
                        .contentType(MediaType.APPLICATION_JSON)
                        .cacheControl(CacheControl.noStore())
                        .bodyValue(Map.of("reason", "no " + view.part().name() + " item " + QuotedText.quote(key, 64)))
                : data(MediaType.APPLICATION_JSON).bodyValue(detail);
    }

    /**
     * {@code GET /status/api/stream}: the live events of the query's page ({@link PageStreams}), each sent only while
     * the connection is writable (Netty's outbound buffer below its high-water mark, 64 KB): Reactive Streams demand
     * alone would not hold back a client that stops reading, since the HTTP layer goes on asking for events while
     * Netty queues them. The connection's kernel send buffer is held to {@value #SEND_BUFFER_BYTES} bytes (the kernel
     * doubles it) rather than the megabytes it may grow to on its own, so such a client stops taking events after
     * about 200 KB and is dropped after the stall limit.
     *
     * @throws IllegalStateException when the server is not Reactor Netty's, whose connection the stream needs
     */
    Mono<ServerResponse> stream(ServerRequest request) {
        String client = request.remoteAddress().map(Object::toString).orElse("an unknown address");
        return withQuery(
                request,
                query -> data(MediaType.TEXT_EVENT_STREAM)
                        // nginx buffers responses unless told not to; an event must not wait there.
                        .header("X-Accel-Buffering", "no")
                        .body(BodyInserters.fromServerSentEvents(streams.open(query, client, connection(request)))));
    }

    private static PageStreams.Connection connection(ServerRequest request) {
        Object transport =
                ServerHttpRequestDecorator.getNativeRequest(request.exchange().getRequest());
        if (!(transport instanceof Connection netty)) {
            throw new IllegalStateException("the status page's stream runs on Reactor Netty (this request came by "
                    + transport.getClass().getName() + ")");
        }
        netty.channel().config().setOption(ChannelOption.SO_SNDBUF, SEND_BUFFER_BYTES);
        return new PageStreams.Connection() {
            @Override
            public boolean writable() {
                return netty.channel().isWritable();
            }

            @Override
            public void close() {
                netty.dispose();
            }
        };
    }

    private static ServerResponse.BodyBuilder data(MediaType type) {
        return ServerResponse.ok().contentType(type).cacheControl(CacheControl.noStore());
    }

    private static Mono<ServerResponse> withQuery(
            ServerRequest request, Function<PageQuery, Mono<ServerResponse>> answer) {
        PageQuery query;
        try {
            query = PageQuery.from(request.queryParams());
        } catch (IllegalArgumentException e) {
            return ServerResponse.status(HttpStatus.BAD_REQUEST)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("reason", e.getMessage()));
        }
        return answer.apply(query);
    }
}
