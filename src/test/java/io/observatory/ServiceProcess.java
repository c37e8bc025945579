package io.observatory;

import static org.awaitility.Awaitility.await;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The service in its own JVM, started like {@code java -jar} would start it (main class
 * {@link ObservatoryApplication} on this test's class path) with JSON (ECS) console logs, which go to a temporary file
 * that tests read to wait for log messages. Public for the tests and benchmarks of other packages.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final int OUTPUT_TAIL_LINES = 40;

    private final Process process;
    private final Path output;

    private ServiceProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /**
     * Starts the service with {@code --logging.structured.format.console=ecs} and {@code args}, and the build's
     * {@code spring.datasource.url} (its incidents under {@code target/}); standard output and standard error go to one
     * temporary file, deleted by {@link #close()}.
     */
    public static ServiceProcess start(List<String> args) throws IOException {
        return start(List.of(), args);
    }

    /** Like {@link #start(List)}, with {@code jvmOptions} (e.g. {@code -Xmx512m}) before the main class. */
    public static ServiceProcess start(List<String> jvmOptions, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String database = System.getProperty("spring.datasource.url");
        if (database != null) {
            // The build's own: a new database per service under target/, not observatory.db in the checkout.
            command.add("-Dspring.datasource.url=" + database);
        }
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                ObservatoryApplication.class.getName(),
                "--logging.structured.format.console=ecs"));
        command.addAll(args);
        Path output = Files.createTempFile("observatory-process", ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        return new ServiceProcess(process, output);
    }

    /** Returns the complete output lines so far (a line still being written is left out). */
    public List<String> lines() {
        String text;
        try {
            text = Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the service output " + output, e);
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.remove(lines.size() - 1);
        return lines;
    }

    /** Returns every output line so far that is not a JSON object (the ECS format writes one object per line). */
    List<String> nonJsonLines() {
        return lines().stream()
                .filter(line -> !line.startsWith("{") || !line.endsWith("}"))
                .toList();
    }

    /**
     * Waits for a log record whose {@code message} matches {@code pattern} and returns its first group.
     *
     * @throws AssertionError with the output's tail if none appears within {@code timeout}
     */
    public String awaitMessage(Pattern pattern, Duration timeout) {
        try {
            return await().atMost(timeout)
                    .until(() -> firstMatch(pattern), Optional::isPresent)
                    .orElseThrow();
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "no log message matching " + pattern + " within " + timeout + "; output:\n" + tail(), e);
        }
    }

    private Optional<String> firstMatch(Pattern pattern) {
        return lines().stream()
                .filter(line -> line.startsWith("{"))
                .map(line -> JsonPath.<String>read(line, "$.message"))
                .map(pattern::matcher)
                .filter(Matcher::matches)
                .map(matcher -> matcher.group(1))
                .findFirst();
    }

    /** The service's process, e.g. for its CPU time. */
    public ProcessHandle handle() {
        return process.toHandle();
    }

    /** Whether the service's process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends SIGTERM ({@link Process#destroy()} on Linux), as Kubernetes does when it stops a pod. */
    public void sigterm() {
        process.destroy();
    }

    /**
     * Waits for the process to exit and returns its exit code.
     *
     * @throws AssertionError with the output's tail if it is still running after {@code timeout}
     */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new AssertionError("still running " + timeout + " after SIGTERM; output:\n" + tail());
        }
        return process.exitValue();
    }

    /** Returns the last lines of output, for failure messages. */
    public String tail() {
        List<String> lines = lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - OUTPUT_TAIL_LINES), lines.size()));
    }

    /** Kills the process if a test left it running, and deletes its output. */
    @Override
    public void close() throws InterruptedException, IOException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Files.deleteIfExists(output);
    }
}
