package io.observatory.meshlab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A witness as it is deployed: the service jar in its own JVM, started inside its server's network namespace with
 * {@code ip netns exec}, so that its probes, its self-check and its reports to the hub all leave from there. Its
 * output goes to {@code <work-dir>/<name>.log}. {@code ip netns exec} replaces itself with the JVM, so the process
 * started here is the witness itself and is stopped by its PID.
 */
final class WitnessProcess implements AutoCloseable {

    /** Small and quick to start: four of them share two cores with the hub, Maven and the test. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private static final int TAIL_LINES = 30;

    private final String name;
    private final String namespace;
    private final Process process;
    private final Path log;

    private WitnessProcess(String name, String namespace, Process process, Path log) {
        this.name = name;
        this.namespace = namespace;
        this.process = process;
        this.log = log;
    }

    /** Starts witness {@code name} in {@code namespace} running {@code jar} with {@code args}. */
    static WitnessProcess start(String name, String namespace, Path jar, Path workDir, List<String> args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(
                "ip",
                "netns",
                "exec",
                namespace,
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        Path log = workDir.resolve(name + ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.getOutputStream().close();
        return new WitnessProcess(name, namespace, process, log);
    }

    String name() {
        return name;
    }

    String namespace() {
        return namespace;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** E.g. {@code w1 (pid 4711 in obs77-s1, exited 1)}, with the last lines of its log. */
    String describeWithLog() {
        String state = process.isAlive() ? "running" : "exited " + process.exitValue();
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            lines = List.of("(cannot read " + log + ": " + e + ")");
        }
        return name + " (pid " + process.pid() + " in " + namespace + ", " + state + "), last lines of " + log + ":\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }

    /** SIGTERM, up to 15 s for a graceful stop, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
