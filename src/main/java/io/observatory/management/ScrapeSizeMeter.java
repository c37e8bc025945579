package io.observatory.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@value #SCRAPE_SIZE} (gauge, bytes; no tags): the body size of the last successful response of the Prometheus
 * scrape endpoint ({@code /actuator/prometheus}) on the management port, as the scraper received it (before any
 * compression), so a scrape shows the size of the one before it; absent before the first. The series a scrape carries
 * grow with the outbounds (about 7 per outbound, 5.1 MB at 10,000): this is the figure to hold against the scraper's
 * {@code body_size_limit} and timeout. Costs one series, and per scrape one response wrapper and an addition per
 * buffer written; other requests pass untouched. Counts the responses of the service's own HTTP server, which
 * serves the actuator ({@code server.port}); a separate {@code management.server.port} is not measured.
 */
@Component
class ScrapeSizeMeter implements WebFilter {

    /** Prometheus shows {@code observatory_scrape_size_bytes}. */
    static final String SCRAPE_SIZE = "observatory.scrape.size";

    private final MeterRegistry registry;
    private final @Nullable String path;
    // Written by the event loop that completed a scrape's response, read by the next scrape on any thread.
    private final AtomicLong lastBytes = new AtomicLong();
    // Set by the first completed scrape, which registers the gauge; event loops race for it.
    private final AtomicBoolean registered = new AtomicBoolean();

    /** @param endpoints where the actuator endpoints are mapped: the {@code prometheus} endpoint's path is measured */
    ScrapeSizeMeter(MeterRegistry registry, PathMappedEndpoints endpoints) {
        this.registry = registry;
        this.path = endpoints.getPath(EndpointId.of("prometheus"));
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (path == null
                || !path.equals(
                        exchange.getRequest().getPath().pathWithinApplication().value())) {
            return chain.filter(exchange);
        }
        return chain.filter(
                exchange.mutate().response(new Counted(exchange.getResponse())).build());
    }

    private void measured(long bytes) {
        lastBytes.set(bytes);
        if (registered.compareAndSet(false, true)) {
            Gauge.builder(SCRAPE_SIZE, lastBytes, AtomicLong::get)
                    .description("Body size of the last successful response of the Prometheus scrape endpoint")
                    .baseUnit(BaseUnits.BYTES)
                    .register(registry);
        }
    }

    /** A scrape's response that counts its body's bytes and reports them once the body is written whole. */
    private final class Counted extends ServerHttpResponseDecorator {

        // The body is written once, its buffers one after another.
        private long bytes;

        Counted(ServerHttpResponse delegate) {
            super(delegate);
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            return super.writeWith(Flux.from(body).doOnNext(buffer -> bytes += buffer.readableByteCount()))
                    .doOnSuccess(done -> {
                        HttpStatusCode status = getStatusCode();
                        if (status == null || status.is2xxSuccessful()) {
                            measured(bytes);
                        }
                    });
        }
    }
}
