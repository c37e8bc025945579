package io.observatory.detectionlab;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the lab's short commands ({@code ip netns exec … nft …}) to completion within a time limit. */
final class Commands {

    private static final Duration LIMIT = Duration.ofSeconds(10);

    private Commands() {
    }

    /**
     * Runs {@code command} with {@code input} on its standard input and returns its standard output.
     *
     * @throws AssertionError when it does not finish within 10 s (it is then killed) or exits with a non-zero code;
     *     the message carries the command and its standard error
     */
    static String run(String input, List<String> command) {
        try {
            Path stdout = Files.createTempFile("detection-lab-command-", ".out");
            Path stderr = Files.createTempFile("detection-lab-command-", ".err");
            try {
                Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile()).start();
                try (OutputStream in = process.getOutputStream()) {
                    in.write(input.getBytes(StandardCharsets.UTF_8));
                }
                if (!process.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    throw new AssertionError(String.join(" ", command) + " did not finish within " + LIMIT);
                }
                if (process.exitValue() != 0) {
                    throw new AssertionError(String.join(" ", command) + " exited with " + process.exitValue() + ": "
                            + Files.readString(stderr).strip());
                }
                return Files.readString(stdout);
            } finally {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + String.join(" ", command), e);
        }
    }

    /** {@link #run(String, List)} with nothing on standard input. */
    static String run(List<String> command) {
        return run("", command);
    }
}
