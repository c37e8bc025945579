package io.observatory.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A test's side of the API's token over HTTP: a token file as an operator writes one, and GET requests to a local
 * HTTP port with or without an {@code Authorization} header.
 */
public final class BearerHttp {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** Writes {@code token} and a newline to a new temporary file, deleted when the JVM exits. */
    public static Path tokenFile(String token) {
        try {
            Path file = Files.createTempFile("observatory-api-token", "");
            file.toFile().deleteOnExit();
            return Files.writeString(file, token + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code GET http://127.0.0.1:<port><path>} with the header {@code Authorization: <authorization>} unless it is
     * {@code null}; the body as a string.
     */
    public HttpResponse<String> get(int port, String path, @Nullable String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(TIMEOUT);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
