package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Scheduler;
import io.observatory.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.netty.DisposableServer;

/**
 * The live stream over a real HTTP port while a real writer publishes 1,000 changes a second among 10,000 outbounds
 * (the rate of 10,000 outbounds probed on their own schedules): a client that reads gets at most four events a
 * second, and a client that stops reading is dropped after the stall limit, its connection closed, without slowing
 * the other or the writer.
 */
@Tag("timing") // counts events a second in wall-clock time: runs alone (pom.xml, surefire's timing-tests)
class StatusPageStreamIntegrationTest {

    private static final int OUTBOUNDS = 10_000;
    /** The outbounds the churn goes round, ten every 10 ms: the first page of 500 changes by half every 250 ms. */
    private static final int CHURNED = 1_000;

    private static final Duration STALL_LIMIT = Duration.ofSeconds(1);

    private final ExecutorScheduler writer = new ExecutorScheduler("writer-test", Ticker.system());
    private final ExecutorScheduler page = new ExecutorScheduler("status-page-test", Ticker.system());
    private final AtomicInteger published = new AtomicInteger();
    private PageFixture fixture;
    private DisposableServer server;
    private volatile boolean churning = true;

    @BeforeEach
    void start() {
        fixture = new PageFixture(OUTBOUNDS, writer, page, Clock.systemUTC(), STALL_LIMIT);
        server = fixture.serve();
        writer.execute(() -> churn(writer, 0));
    }

    @AfterEach
    void stop() {
        churning = false;
        fixture.streams.close();
        server.disposeNow(Duration.ofSeconds(5));
        writer.close();
        page.close();
    }

    /** Publishes ten outbounds' new probes every 10 ms on the writer, as their own schedules would. */
    private void churn(Scheduler on, int round) {
        if (!churning) {
            return;
        }
        int from = (round * 10) % CHURNED;
        fixture.updater.changed(PageFixture.round(from, from + 10, round, Clock.systemUTC()), List.of());
        published.addAndGet(10);
        on.schedule(Duration.ofMillis(10), () -> churn(on, round + 1));
    }

    private URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    @Test
    void streamWhenThousandChangesASecondThenAReadingClientGetsAtMostFourEventsASecondOfItsPageOnly() {
        int limit = PageQuery.MAX_LIMIT;
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<HttpResponse<Stream<String>>> response = HttpClient.newHttpClient()
                .sendAsync(
                        HttpRequest.newBuilder(uri("/status/api/stream?limit=" + limit))
                                .build(),
                        HttpResponse.BodyHandlers.ofLines());
        CompletableFuture.runAsync(() -> response.join().body().forEach(lines::add));
        await().atMost(Duration.ofSeconds(10)).until(() -> count(lines, "event:outbounds") >= 1);

        int eventsBefore = count(lines, "event:outbounds");
        int publishedBefore = published.get();
        long started = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> published.get() - publishedBefore >= 2_000);
        double seconds = (System.nanoTime() - started) / 1e9;
        int events = count(lines, "event:outbounds") - eventsBefore;
        int changes = published.get() - publishedBefore;

        System.out.printf(
                "live stream: %d changes in %.1f s, %d outbounds events to the reading client%n",
                changes, seconds, events);
        // One tick of slack at each end: the client reads lines in chunks, so an event sent just before the window
        // may be counted in it; without batching the ten-outbound rounds would make about 100 events a second.
        assertThat(events)
                .as("half its page changes every 250 ms: at most one event each")
                .isBetween(2, (int) Math.ceil(seconds * PageStreams.BATCHES_PER_SECOND) + 2);
        assertThat(lines)
                .filteredOn(line -> line.startsWith("data:"))
                .allSatisfy(data ->
                        assertThat(data.length()).as("at most its page's rows").isLessThan(limit * 700));
        response.join().body().close();
    }

    @Test
    void streamWhenAClientStopsReadingThenDroppedAfterTheStallLimitAndItsConnectionClosed() throws IOException {
        try (Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(1024);
            stuck.connect(new InetSocketAddress("127.0.0.1", server.port()));
            OutputStream request = stuck.getOutputStream();
            request.write(("GET /status/api/stream?limit=500 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Accept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            request.flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> fixture.openStreams() == 1);
            int publishedBefore = published.get();

            await().atMost(Duration.ofSeconds(30)).until(() -> fixture.openStreams() == 0);
            int publishedWhileStuck = published.get() - publishedBefore;
            long held = readToEnd(stuck);

            System.out.printf(
                    "live stream: a client reading nothing was dropped after %d changes; its connection"
                            + " held %,d bytes, then closed%n",
                    publishedWhileStuck, held);
            assertThat(publishedWhileStuck).as("the writer went on publishing").isPositive();
            assertThat(held)
                    .as("what the server had written before dropping it: a few events, not every change")
                    .isLessThan(64L * 1024 * 1024);
        }
    }

    private static int count(List<String> lines, String line) {
        return (int) lines.stream().filter(line::equals).count();
    }

    /**
     * Reads what the connection still holds until the server closed it (an orderly close, or a reset, which drops the
     * rest); fails on a read timeout, a connection left open.
     */
    private static long readToEnd(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                total += read;
            }
        } catch (SocketException reset) {
            assertThat(reset).hasMessageContaining("reset");
        }
        return total;
    }
}
