package io.observatory.management;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain JDK HTTP client for the management port, as an operator's {@code curl} would use it. */
final class ManagementHttp {

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;

    /** @param port the management HTTP port on 127.0.0.1 */
    ManagementHttp(int port) {
        this.port = port;
    }

    /** Sends {@code GET path} (for example {@code /actuator/health}) and returns the response with its body. */
    HttpResponse<String> get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + " on 127.0.0.1:" + port + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during GET " + path, e);
        }
    }

    /** Returns the body of {@code GET path}. */
    String body(String path) {
        return get(path).body();
    }
}
