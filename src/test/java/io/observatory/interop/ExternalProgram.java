package io.observatory.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a program outside the JVM (the Python Xray client, curl) to completion within a time limit. */
final class ExternalProgram {

    private static final Duration KILL_GRACE = Duration.ofSeconds(5);

    private ExternalProgram() {
    }

    /**
     * Runs {@code command} in the working directory (the project root under Maven) with no standard input and returns
     * its standard output.
     *
     * @param limit how long the program may run; past it the program is killed
     * @param command the program and its arguments
     * @throws AssertionError when the program does not finish within {@code limit} or exits with a non-zero code; the
     *     message carries its standard error
     */
    static String run(Duration limit, List<String> command) throws IOException, InterruptedException {
        Path stdout = Files.createTempFile("interop-program-", ".out");
        Path stderr = Files.createTempFile("interop-program-", ".err");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            process.getOutputStream().close();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                throw new AssertionError(command.get(0) + " did not finish within " + limit.toMillis()
                        + " ms and was killed; stderr: " + Files.readString(stderr));
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(command.get(0) + " exited with " + process.exitValue() + "; stderr: "
                        + Files.readString(stderr));
            }
            return Files.readString(stdout);
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }
}
