package io.observatory.mesh.witness;

import io.observatory.config.HostPort;
import io.observatory.mesh.config.SelfCheckSettings;
import io.observatory.mesh.config.WitnessSettings;
import io.observatory.mesh.protocol.WitnessReport.SelfCheckResult;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Runs a witness's local checks of its own server for the self-report ({@code observatory.mesh.witness.checks}):
 * {@code tcp} connects, {@code http} sends a GET and judges the status, {@code pid-file} reads a process ID and asks
 * the kernel whether that process is alive. Blocking, one after another, each within {@code check-timeout}: a round
 * takes at most checks × timeout. Never throws: a check that cannot run fails with the reason.
 */
final class SelfChecks {

    private final WitnessSettings settings;
    private final HttpClient http;

    SelfChecks(WitnessSettings settings) {
        this.settings = settings;
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.checkTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Every check's result, in configuration order. */
    List<SelfCheckResult> run() {
        List<SelfCheckResult> results = new ArrayList<>(settings.checks().size());
        for (SelfCheckSettings check : settings.checks()) {
            String failure = failure(check);
            results.add(new SelfCheckResult(check.describe(), failure == null, failure == null ? "" : failure));
        }
        return results;
    }

    /** Why {@code check} fails, or {@code null} when it passes. */
    private @Nullable String failure(SelfCheckSettings check) {
        Duration timeout = settings.checkTimeout();
        if (check.tcp() != null) {
            HostPort target = Objects.requireNonNull(HostPort.parse(check.tcp()), "validated");
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(target.host(), target.port()), (int) timeout.toMillis());
                return null;
            } catch (IOException e) {
                return describe(e);
            }
        }
        if (check.http() != null) {
            try {
                HttpResponse<Void> response = http.send(
                        HttpRequest.newBuilder(URI.create(check.http()))
                                .timeout(timeout)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                return check.expectedStatus().matches(response.statusCode())
                        ? null
                        : "HTTP " + response.statusCode() + " (expected: " + check.expectedStatus() + ")";
            } catch (IOException e) {
                return describe(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        Path file = Path.of(Objects.requireNonNull(check.pidFile(), "validated"));
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            long pid = Long.parseLong(text);
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            return process.isPresent() && process.get().isAlive() ? null : "process " + pid + " is not running";
        } catch (NumberFormatException e) {
            return "the file holds no process ID";
        } catch (IOException e) {
            return describe(e);
        }
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }
}
