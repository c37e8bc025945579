package io.observatory.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP server on {@code 127.0.0.1} that records every request (path, headers, body, arrival) and answers with a
 * status the test sets: the receiver of webhooks, and of Alertmanager's own webhook notifications.
 */
public final class RecordingHttpServer implements AutoCloseable {

    /**
     * One request.
     *
     * @param path    its path
     * @param headers its headers, names in lower case
     * @param body    its body as UTF-8
     * @param arrived when it arrived
     */
    public record Request(String path, Map<String, List<String>> headers, String body, Instant arrived) {

        /** The first value of the header {@code name} (lower case), or null. */
        public String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile CountDownLatch hold = new CountDownLatch(0);

    private RecordingHttpServer(HttpServer server) {
        this.server = server;
    }

    /** Starts one on a free port. */
    public static RecordingHttpServer start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        RecordingHttpServer recording = new RecordingHttpServer(server);
        server.createContext("/", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Map<String, List<String>> headers = new java.util.TreeMap<>();
            exchange.getRequestHeaders()
                    .forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), values));
            recording.attempts.incrementAndGet();
            try {
                recording.hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.close();
                return;
            }
            int answer = recording.status.get();
            if (answer / 100 == 2) {
                recording.requests.add(new Request(
                        exchange.getRequestURI().getPath(),
                        headers,
                        new String(body, StandardCharsets.UTF_8),
                        Instant.now()));
            }
            exchange.sendResponseHeaders(answer, -1);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
        return recording;
    }

    /** The base URL, e.g. {@code http://127.0.0.1:41234}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The requests answered with a 2xx so far, in arrival order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Every request so far, answered with a 2xx or not. */
    public int attempts() {
        return attempts.get();
    }

    /** Holds every request without an answer until {@link #release}: a receiver that hangs. */
    public void hang() {
        hold = new CountDownLatch(1);
    }

    /** Answers the held requests and every later one again. */
    public void release() {
        hold.countDown();
    }

    /** Answers every later request with {@code code} (a 5xx: a receiver in trouble; its requests are not recorded). */
    public void answer(int code) {
        status.set(code);
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
