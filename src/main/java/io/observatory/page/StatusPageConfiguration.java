package io.observatory.page;

import io.observatory.management.HttpReads;
import io.observatory.management.PartView;
import io.observatory.snapshot.ObservationStore;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The status page on the management HTTP port (WebFlux functional routes beside Actuator):
 * <ul>
 *   <li>{@code GET /} and {@code GET /status/} redirect to {@code /status};
 *   <li>{@code GET /status}, {@code GET /status/assets/*}: the page, its script and style, from the jar; open;
 *   <li>{@code GET /status/assets/panels.json}, {@code /status/assets/panels/<name>/*}: the names of the capability
 *       parts with a panel ({@link PartView}), and each panel's script and style; open, as they hold no data;
 *   <li>{@code GET /status/api/outbounds}, {@code /status/api/<name>} and {@code /status/api/<name>/<key>} per panel, {@code /status/api/stream}: its
 *       data, as JSON and as server-sent events, under the API's read rules ({@link HttpReads}, on exactly
 *       the requests these routes match).
 * </ul>
 * The page names its script, style, data and the redirect names the page by relative URLs, so that it works behind a
 * reverse proxy that serves it under a path prefix ({@code /observatory/status}); the stream says
 * {@code X-Accel-Buffering: no}, which tells nginx not to buffer it.
 */
@Configuration(proxyBeanMethods = false)
public class StatusPageConfiguration {

    /** The data paths of the page itself, which no part's panel may take. */
    static final Set<String> RESERVED = Set.of("outbounds", "stream");

    /** How long a live stream may take no event while one is due before it is dropped. */
    static final Duration STALL_LIMIT = Duration.ofSeconds(10);

    /** The page's own thread, on which its live streams are served; injected by name. */
    @Bean(destroyMethod = "close")
    ExecutorScheduler statusPageThread(Ticker ticker) {
        return new ExecutorScheduler("status-page", ticker);
    }

    @Bean
    RttHistory statusPageHistory(ObservationStore store) {
        return new RttHistory(store);
    }

    @Bean
    PageStreams statusPageStreams(
            @Qualifier("statusPageThread") Scheduler page,
            RttHistory history,
            List<PartView<?, ?>> views,
            Clock clock,
            JsonMapper json) {
        return new PageStreams(page, history, views, clock, json, STALL_LIMIT);
    }

    /** Completes the live streams as the context closes, before the HTTP server's graceful shutdown waits for them. */
    @Bean
    ApplicationListener<ContextClosedEvent> statusPageShutdown(PageStreams streams) {
        return event -> streams.close();
    }

    /** The page's security headers: its own origin only, no framing, no type sniffing. */
    @Bean
    WebFilter statusPageHeaders() {
        return new PageHeaders();
    }

    @Bean
    RouterFunction<ServerResponse> statusPageRoutes(
            RttHistory history, List<PartView<?, ?>> views, PageStreams streams, Clock clock, HttpReads reads) {
        StatusPageHandler handler = new StatusPageHandler(history, views, streams, clock);
        RouterFunctions.Builder data = RouterFunctions.route()
                .GET("/status/api/outbounds", handler::outbounds)
                .GET("/status/api/stream", handler::stream);
        RouterFunctions.Builder assets = RouterFunctions.route().GET("/status/assets/panels.json", handler::panels);
        for (PartView<?, ?> view : views) {
            String name = view.part().name();
            if (RESERVED.contains(name)) {
                throw new IllegalStateException("a part named " + name + " cannot have a status page panel"
                        + " (expected: a name other than " + RESERVED + ")");
            }
            data.GET("/status/api/" + name, request -> handler.part(view));
            data.GET("/status/api/" + name + "/{key}", request -> handler.detail(view, request.pathVariable("key")));
            assets.resources("/status/assets/panels/" + name + "/**", new ClassPathResource(view.pageAssets()));
        }
        return RouterFunctions.route()
                .GET(
                        "/",
                        request -> ServerResponse.temporaryRedirect(URI.create("status"))
                                .build())
                .GET("/status", handler::page)
                .GET(
                        "/status/",
                        request -> ServerResponse.temporaryRedirect(URI.create("../status"))
                                .build())
                .add(data.filter(reads.routeFilter()).build())
                .add(assets.build())
                .add(RouterFunctions.resources("/status/assets/**", new ClassPathResource("status-page/assets/")))
                .build();
    }
}
