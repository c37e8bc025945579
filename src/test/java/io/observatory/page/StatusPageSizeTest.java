package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.FakeScheduler;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.netty.DisposableServer;

/**
 * What a browser loads to show the status page of 10,000 outbounds, each with a full RTT history and every third one
 * failing with a proxy's refusal: the page, its script and style, and the first event of the live stream (the first
 * page of outbounds), read over a real HTTP port from the page's own routes. The bound is 2 MB.
 */
class StatusPageSizeTest {

    private static final int OUTBOUNDS = 10_000;
    private static final int BOUND_BYTES = 2_000_000;

    private static final FakeScheduler WRITER = new FakeScheduler();
    private static final ExecutorScheduler PAGE = new ExecutorScheduler("status-page-test", Ticker.system());
    private static PageFixture fixture;
    private static DisposableServer server;
    private static WebTestClient client;

    @BeforeAll
    static void observeTenThousandOutboundsThirtyTwoTimes() {
        fixture = new PageFixture(OUTBOUNDS, WRITER, PAGE, WRITER.clock(), Duration.ofSeconds(10));
        WRITER.runDue();
        for (int round = 0; round < RttHistory.SAMPLES; round++) {
            int probeRound = round;
            WRITER.execute(() ->
                    fixture.updater.changed(PageFixture.round(0, OUTBOUNDS, probeRound, WRITER.clock()), List.of()));
            WRITER.advance(Duration.ofSeconds(1));
        }
        server = fixture.serve();
        client = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + server.port())
                .build();
    }

    @AfterAll
    static void stopPage() {
        fixture.streams.close();
        server.disposeNow(Duration.ofSeconds(5));
        PAGE.close();
    }

    private static int bytes(String path) {
        byte[] body = client.get()
                .uri(path)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        return body == null ? 0 : body.length;
    }

    private static int firstEventBytes(String query) {
        ServerSentEvent<String> first = client.get()
                .uri("/status/api/stream" + query)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody()
                .blockFirst(Duration.ofSeconds(10));
        assertThat(first).isNotNull();
        assertThat(first.event()).isEqualTo("outbounds");
        // "event:outbounds\n" + "data:" + the data + "\n\n"
        return "event:outbounds\ndata:".length() + first.data().getBytes(StandardCharsets.UTF_8).length + 2;
    }

    @Test
    void pageWhenTenThousandOutboundsThenThePageAndItsFirstEventsStayFarBelowTwoMegabytes() {
        int shell = bytes("/status") + bytes("/status/assets/page.js") + bytes("/status/assets/page.css");
        int firstPage = firstEventBytes("");
        int largestPage = firstEventBytes("?limit=" + PageQuery.MAX_LIMIT);
        int snapshot = bytes("/status/api/outbounds?limit=" + PageQuery.MAX_LIMIT);

        System.out.printf(
                "status page at %,d outbounds: page, script and style %,d bytes; first event %,d bytes"
                        + " (%d rows); at %d rows %,d bytes (JSON snapshot %,d bytes)%n",
                OUTBOUNDS, shell, firstPage, PageQuery.DEFAULT_LIMIT, PageQuery.MAX_LIMIT, largestPage, snapshot);
        assertThat(shell + firstPage)
                .as("what a browser loads to show the first page")
                .isLessThan(BOUND_BYTES / 4);
        assertThat(shell + largestPage).as("the same with the largest page").isLessThan(BOUND_BYTES);
    }
}
