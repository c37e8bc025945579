package io.observatory.management.page;

import io.observatory.api.auth.ApiAuthInterceptor;
import io.observatory.mesh.MeshHub;
import io.observatory.snapshot.ObservationStore;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
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
 *   <li>{@code GET /} redirects to {@code /status};
 *   <li>{@code GET /status}, {@code GET /status/assets/*}: the page, its script and style, from the jar; open;
 *   <li>{@code GET /status/api/outbounds}, {@code /status/api/mesh}, {@code /status/api/stream}: its data, as JSON
 *       and as server-sent events, under the API's read rules ({@link PageAccess}).
 * </ul>
 * The page names its script, style, data and the redirect names the page by relative URLs, so that it works behind a
 * reverse proxy that serves it under a path prefix ({@code /observatory/status}); the stream says
 * {@code X-Accel-Buffering: no}, which tells nginx not to buffer it.
 */
@Configuration(proxyBeanMethods = false)
public class StatusPageConfiguration {

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
            MeshHub hub,
            Clock clock,
            JsonMapper json) {
        return new PageStreams(page, history, hub, clock, json, STALL_LIMIT);
    }

    /** Completes the live streams as the context closes, before the HTTP server's graceful shutdown waits for them. */
    @Bean
    ApplicationListener<ContextClosedEvent> statusPageShutdown(PageStreams streams) {
        return event -> streams.close();
    }

    /** The read rules of the API for the status page's data and {@code /actuator/observatory}. */
    @Bean
    WebFilter observationReadAccess(ApiAuthInterceptor auth, JsonMapper json) {
        return new PageAccess(auth, json);
    }

    @Bean
    RouterFunction<ServerResponse> statusPageRoutes(RttHistory history, MeshHub hub, PageStreams streams, Clock clock) {
        StatusPageHandler handler = new StatusPageHandler(history, hub, streams, clock);
        RouterFunction<ServerResponse> data = RouterFunctions.route()
                .GET("/status/api/outbounds", handler::outbounds)
                .GET("/status/api/mesh", handler::mesh)
                .GET("/status/api/stream", handler::stream)
                .build();
        return RouterFunctions.route()
                .GET(
                        "/",
                        request -> ServerResponse.temporaryRedirect(URI.create("status"))
                                .build())
                .GET("/status", handler::page)
                .add(data)
                .add(RouterFunctions.resources("/status/assets/**", new ClassPathResource("status-page/assets/")))
                .build();
    }
}
