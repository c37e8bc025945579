package io.observatory.page;

import static io.observatory.testing.SyntheticStatuses.probed;

import io.observatory.api.auth.ApiGuard;
import io.observatory.api.auth.ApiToken;
import io.observatory.config.ApiAuthSettings;
import io.observatory.config.CoreSettings;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.management.HttpReads;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.testing.Configs;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The status page without Spring: {@code outbounds} direct outbounds {@code o00000}, {@code o00001}, … judged by a
 * real updater on {@code writer}, the page's streams on {@code page}, and its routes with reads open, served on a real
 * port when a test asks.
 */
final class PageFixture {

    final Scheduler writer;
    final Scheduler page;
    final ObservationUpdater updater;
    final PageStreams streams;
    final RouterFunction<ServerResponse> routes;

    PageFixture(int outbounds, Scheduler writer, Scheduler page, Clock clock, Duration stallLimit) {
        this.writer = writer;
        this.page = page;
        ObservatoryConfig defaults = Configs.of();
        List<Outbound> direct = new ArrayList<>(outbounds);
        for (int i = 0; i < outbounds; i++) {
            direct.add(Outbound.direct(tag(i)));
        }
        // Built directly: binding 10,000 outbounds through Spring's Binder takes seconds.
        ObservatoryConfig config = ObservatoryConfig.of(new CoreSettings(
                direct,
                defaults.standard(),
                defaults.burst(),
                defaults.probe(),
                defaults.reload(),
                defaults.passive(),
                defaults.availability(),
                defaults.api(),
                defaults.metrics()));
        updater = new ObservationUpdater(config, writer, clock);
        RttHistory history = new RttHistory(updater.store());
        streams = new PageStreams(
                page, history, List.of(), clock, JsonMapper.builder().build(), stallLimit);
        // Reads open, as by default: the read rule itself is StatusPageAuthIntegrationTest's.
        HttpReads reads = new HttpReads(
                new ApiGuard(
                        new ApiAuthSettings(null, null, false, false), settings -> ApiToken.NONE, false, List.of()),
                JsonMapper.builder().build());
        routes = new StatusPageConfiguration().statusPageRoutes(history, List.of(), streams, clock, reads);
    }

    /** Serves the routes on a real HTTP port of 127.0.0.1, as the management port does (Reactor Netty). */
    DisposableServer serve() {
        return HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle(new ReactorHttpHandlerAdapter(RouterFunctions.toHttpHandler(routes)))
                .bindNow();
    }

    /** The tag of outbound {@code i}. */
    static String tag(int i) {
        return String.format("o%05d", i);
    }

    /**
     * The statuses of one probe round of outbounds {@code from} to {@code to} (exclusive): every third one dead with
     * a refusal through its proxy, the others alive with an RTT that differs by outbound and round; so every round is
     * new evidence for each, and only the first changes verdicts.
     */
    static List<OutboundStatus> round(int from, int to, int round, Clock clock) {
        List<OutboundStatus> statuses = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            boolean alive = i % 3 != 0;
            statuses.add(
                    probed(tag(i), alive, 1_000_000L + 37_000L * ((i * 7L + round * 13L) % 1_000), clock.instant()));
        }
        return statuses;
    }

    /** The open streams, read on the page's thread. */
    int openStreams() {
        CompletableFuture<Integer> count = new CompletableFuture<>();
        page.execute(() -> count.complete(streams.openStreams()));
        return count.join();
    }
}
