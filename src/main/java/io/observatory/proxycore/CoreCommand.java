package io.observatory.proxycore;

import io.observatory.proxycore.ProxyCoreSettings.CommandLine;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The core's executable and how it takes a configuration file: Xray's (and v2ray 5's) {@code run -c FILE}, or v2ray
 * 4's {@code -config FILE}; with {@link CommandLine#AUTO}, asked once with {@code -version}, which both print their
 * version for (v2ray 4: {@code V2Ray 4.34.0 ...}). Runs the core's own check of a configuration ({@code -test}).
 */
final class CoreCommand {

    /** The longest a version query or a configuration test may take before it is killed. */
    private static final long DEADLINE_SECONDS = 10;

    /** The most of a failed test's output a problem line carries. */
    private static final int MAX_MESSAGE = 400;

    private final Path binary;
    private final CommandLine style;

    private CoreCommand(Path binary, CommandLine style) {
        this.binary = binary;
        this.style = style;
    }

    /**
     * The command of {@code binary}, its style asked of the binary when {@code configured} is {@link CommandLine#AUTO}.
     *
     * @throws IllegalArgumentException with one line (without the property) when the binary is missing, not a file
     *     or not executable, or does not answer the version query
     */
    static CoreCommand of(Path binary, CommandLine configured) {
        if (!Files.isRegularFile(binary)) {
            throw new IllegalArgumentException(binary + ": no such file (expected: the xray or v2ray executable)");
        }
        if (!Files.isExecutable(binary)) {
            throw new IllegalArgumentException(binary + ": not executable (expected: the xray or v2ray executable)");
        }
        if (configured != CommandLine.AUTO) {
            return new CoreCommand(binary, configured);
        }
        Run version = run(List.of(binary.toString(), "-version"));
        if (version.output().isBlank()) {
            throw new IllegalArgumentException(
                    binary + ": printed nothing for -version (expected: the xray or v2ray" + " executable)");
        }
        String printed = version.output().strip();
        if (!printed.startsWith("Xray") && !printed.startsWith("V2Ray")) {
            throw new IllegalArgumentException(binary + ": printed neither Xray nor V2Ray for -version (expected: the"
                    + " xray or v2ray executable, or command-line: run or config-flag for another core)");
        }
        boolean v2ray4 = printed.startsWith("V2Ray 4.");
        return new CoreCommand(binary, v2ray4 ? CommandLine.CONFIG_FLAG : CommandLine.RUN);
    }

    /** The style in use, never {@link CommandLine#AUTO}. */
    CommandLine style() {
        return style;
    }

    /** The command line that runs the core with {@code config}. */
    List<String> run(Path config) {
        return style == CommandLine.CONFIG_FLAG
                ? List.of(binary.toString(), "-config", config.toString())
                : List.of(binary.toString(), "run", "-c", config.toString());
    }

    /**
     * Has the core check {@code config} without running it.
     *
     * @return {@code null} when the core accepts it, else the core's reason: the last line it printed
     */
    @Nullable
    String refusal(Path config) {
        List<String> command = style == CommandLine.CONFIG_FLAG
                ? List.of(binary.toString(), "-test", "-config", config.toString())
                : List.of(binary.toString(), "run", "-test", "-c", config.toString());
        Run test = run(command);
        if (test.exitCode() == 0) {
            return null;
        }
        List<String> lines =
                test.output().strip().lines().filter(line -> !line.isBlank()).toList();
        String last = lines.isEmpty()
                ? "exit code " + test.exitCode()
                : lines.get(lines.size() - 1).strip();
        return last.length() > MAX_MESSAGE ? last.substring(0, MAX_MESSAGE) + "..." : last;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof CoreCommand command && command.binary.equals(binary) && command.style == style;
    }

    @Override
    public int hashCode() {
        return binary.hashCode() * 31 + style.hashCode();
    }

    @Override
    public String toString() {
        return String.join(" ", run(Path.of("FILE")));
    }

    /** What a short run printed (stdout and stderr together) and its exit code; -1 when it was killed. */
    private record Run(String output, int exitCode) {}

    private static Run run(List<String> command) {
        Path output = null;
        try {
            output = Files.createTempFile("observatory-core-", ".out");
            Process process = new ProcessBuilder(new ArrayList<>(command))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            boolean exited = process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                process.destroyForcibly();
            }
            String printed = new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
            return new Run(printed, exited ? process.exitValue() : -1);
        } catch (IOException e) {
            throw new UncheckedIOException(command.get(0) + " could not be run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        } finally {
            delete(output);
        }
    }

    private static void delete(@Nullable Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }
}
