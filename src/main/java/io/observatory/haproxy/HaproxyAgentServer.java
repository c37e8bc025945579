package io.observatory.haproxy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.observatory.snapshot.ObservationStore;
import io.observatory.text.GoDuration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.NettyInbound;
import reactor.netty.NettyOutbound;
import reactor.netty.tcp.TcpServer;

/**
 * The agent's TCP port (Reactor Netty): per connection, reads one request line of at most
 * {@value AgentAnswers#MAX_TAG} bytes, writes the {@link AgentAnswers answer} from the current snapshot and closes, as
 * HAProxy's agent check expects. Never touches the writer: each answer reads the published observation. A connection
 * that sends no line within {@code timeout} is closed without an answer (HAProxy then keeps the server's state), and
 * the first such connection is logged, since an {@code agent-send} without its trailing {@code \n} looks like that.
 * Serves many HAProxy processes at once on Netty's event loop, at most {@code max-connections} connections open;
 * costs a few hundred bytes per open connection, for at most {@code timeout}.
 */
final class HaproxyAgentServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(HaproxyAgentServer.class);

    private final HaproxyAgentSettings settings;
    private final ObservationStore store;
    private final Map<String, Counter> answers = new ConcurrentHashMap<>();
    private final MeterRegistry meters;
    private final AtomicBoolean silentLogged = new AtomicBoolean();
    private final AtomicBoolean refusedLogged = new AtomicBoolean();
    private final AtomicInteger open = new AtomicInteger();
    private volatile @Nullable DisposableServer server;

    HaproxyAgentServer(HaproxyAgentSettings settings, ObservationStore store, MeterRegistry meters) {
        this.settings = settings;
        this.store = store;
        this.meters = meters;
    }

    @Override
    public void start() {
        int port = Objects.requireNonNull(settings.port(), "started only with a port");
        server = TcpServer.create()
                .host(settings.address())
                .port(port)
                .doOnConnection(connection -> {
                    connection.onDispose(open::decrementAndGet);
                    if (open.incrementAndGet() > settings.maxConnections()) {
                        refused();
                        connection.dispose();
                        return;
                    }
                    connection.addHandlerLast(
                            "agent-line", new LineBasedFrameDecoder(AgentAnswers.MAX_TAG + 2, true, true));
                })
                .handle(this::serve)
                .bindNow();
        log.info("HAProxy agent listening on {}:{}", settings.address(), port);
    }

    private Mono<Void> serve(NettyInbound in, NettyOutbound out) {
        return in.receive()
                .asString(StandardCharsets.UTF_8)
                .next()
                .timeout(settings.timeout())
                .map(line -> AgentAnswers.answer(line, store.current()))
                .onErrorResume(TooLongFrameException.class, e -> Mono.just(AgentAnswers.BAD_TAG))
                .onErrorResume(TimeoutException.class, e -> {
                    silent();
                    return Mono.empty();
                })
                .flatMap(answer -> {
                    count(answer);
                    return out.sendString(Mono.just(answer), StandardCharsets.US_ASCII)
                            .then();
                });
    }

    private void silent() {
        count("none");
        if (silentLogged.compareAndSet(false, true)) {
            log.warn(
                    "HAProxy agent: a connection sent no request line within {} and was closed without an answer"
                            + " (does its agent-send end with \\n?); later ones are counted in"
                            + " observatory_haproxy_agent_answers_total{answer=\"none\"}",
                    GoDuration.format(settings.timeout()));
        }
    }

    private void refused() {
        count("refused");
        if (refusedLogged.compareAndSet(false, true)) {
            log.warn(
                    "HAProxy agent: {} connections open, closing new ones until some end (see"
                            + " observatory.haproxy-agent.max-connections); counted in"
                            + " observatory_haproxy_agent_answers_total{answer=\"refused\"}",
                    settings.maxConnections());
        }
    }

    private void count(String answer) {
        String word = "none".equals(answer) || "refused".equals(answer) ? answer : AgentAnswers.word(answer);
        answers.computeIfAbsent(
                        word,
                        key -> Counter.builder("observatory_haproxy_agent_answers_total")
                                .description(
                                        "Answers of the HAProxy agent by their first word; none: no request line in time")
                                .tag("answer", key)
                                .register(meters))
                .increment();
    }

    @Override
    public void stop() {
        DisposableServer running = server;
        server = null;
        if (running != null) {
            running.disposeNow(Duration.ofSeconds(1));
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }
}
