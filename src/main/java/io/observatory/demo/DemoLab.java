package io.observatory.demo;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The embedded demo network (profile {@code demo}): one HTTP server on 127.0.0.1 whose paths behave like the targets
 * an operator meets in the field — {@code /fast} answers 204 at once, {@code /slow} after {@link #SLOW_DELAY},
 * {@code /flaky} resets about half of the connections, {@code /hang} never answers. Starts before the observer
 * (lower lifecycle phase) so the first round already finds it.
 */
@Component
@Profile("demo")
class DemoLab implements SmartLifecycle {

    /** Delay of the slow target. */
    static final Duration SLOW_DELAY = Duration.ofMillis(300);

    private static final Logger log = LoggerFactory.getLogger(DemoLab.class);

    private final int port;
    private final RandomGenerator random = RandomGenerator.getDefault();
    // volatile: started and stopped by Spring's lifecycle threads, read by isRunning; null until started.
    private volatile @Nullable DisposableServer server;

    /** @param port loopback port of the demo targets ({@code demo.port}, default 18080) */
    DemoLab(@Value("${demo.port:18080}") int port) {
        this.port = port;
    }

    @Override
    public void start() {
        DisposableServer started = HttpServer.create()
                .host("127.0.0.1")
                .port(port)
                .route(routes -> routes.get("/fast", (request, response) -> noContent(response))
                        .get(
                                "/slow",
                                (request, response) -> Mono.delay(SLOW_DELAY).then(noContent(response)))
                        .get(
                                "/flaky",
                                (request, response) -> random.nextBoolean() ? reset(response) : noContent(response))
                        .get("/hang", (request, response) -> Mono.never()))
                .bindNow();
        server = started;
        log.info("demo targets listening on http://127.0.0.1:{}/ with paths /fast /slow /flaky /hang", started.port());
    }

    private static Mono<Void> noContent(HttpServerResponse response) {
        return response.status(HttpResponseStatus.NO_CONTENT).send();
    }

    private static Mono<Void> reset(HttpServerResponse response) {
        response.withConnection(connection -> {
            connection.channel().config().setOption(ChannelOption.SO_LINGER, 0);
            connection.channel().close().addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        });
        return Mono.empty();
    }

    @Override
    public void stop() {
        DisposableServer current = server;
        if (current != null) {
            current.disposeNow(Duration.ofSeconds(1));
        }
    }

    @Override
    public boolean isRunning() {
        DisposableServer current = server;
        return current != null && !current.isDisposed();
    }

    @Override
    public int getPhase() {
        return -100;
    }
}
