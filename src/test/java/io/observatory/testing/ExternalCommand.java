package io.observatory.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program outside the JVM (curl, h2load, the Python Xray client, {@code ip netns exec … nft …}) to completion
 * within a time limit, in the working directory (the project root under Maven).
 */
public final class ExternalCommand {

    private static final Duration KILL_GRACE = Duration.ofSeconds(5);

    private ExternalCommand() {}

    /** {@link #run(Duration, String, List)} with nothing on standard input. */
    public static String run(Duration limit, List<String> command) {
        return run(limit, "", command);
    }

    /**
     * Runs {@code command} with {@code input} on its standard input and returns its standard output.
     *
     * @param limit how long the program may run; past it the program is killed
     * @throws AssertionError when it does not finish within {@code limit} or exits with a non-zero code (the message
     *     carries the command and its standard error), or cannot be started
     */
    public static String run(Duration limit, String input, List<String> command) {
        String shown = String.join(" ", command);
        try {
            Path stdout = Files.createTempFile("external-command-", ".out");
            Path stderr = Files.createTempFile("external-command-", ".err");
            try {
                Process process = new ProcessBuilder(command)
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
                try (OutputStream in = process.getOutputStream()) {
                    in.write(input.getBytes(StandardCharsets.UTF_8));
                }
                if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                    throw new AssertionError(
                            shown + " did not finish within " + limit.toMillis() + " ms and was killed; stderr: "
                                    + Files.readString(stderr).strip());
                }
                if (process.exitValue() != 0) {
                    throw new AssertionError(shown + " exited with " + process.exitValue() + ": "
                            + Files.readString(stderr).strip());
                }
                return Files.readString(stdout);
            } finally {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + shown + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + shown, e);
        }
    }
}
