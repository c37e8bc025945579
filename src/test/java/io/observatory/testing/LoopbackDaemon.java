package io.observatory.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server program outside the JVM (nginx, prometheus-blackbox-exporter) that a test starts in the foreground on a
 * {@code 127.0.0.1} port, waits for until it accepts connections, reads the CPU time of, and stops by its own
 * {@link Process} handle on {@link #close()}.
 */
public final class LoopbackDaemon implements AutoCloseable {

    private static final Duration READY_LIMIT = Duration.ofSeconds(10);
    private static final Duration STOP_LIMIT = Duration.ofSeconds(5);

    private final String name;
    private final Process process;
    private final Path log;

    private LoopbackDaemon(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command} with its standard output and error in {@code log} and returns once {@code 127.0.0.1:port}
     * accepts a connection.
     *
     * @throws AssertionError naming the program and quoting its log when it exits first or is not listening within
     *     10 s (it is stopped then)
     */
    public static LoopbackDaemon start(String name, List<String> command, int port, Path log) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.getOutputStream().close();
        LoopbackDaemon daemon = new LoopbackDaemon(name, process, log);
        try {
            await().atMost(READY_LIMIT).pollInterval(Duration.ofMillis(50)).until(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError(
                            name + " exited with " + process.exitValue() + "; its log: " + Files.readString(log));
                }
                return accepts(port);
            });
        } catch (RuntimeException | AssertionError e) {
            daemon.close();
            throw new AssertionError(
                    name + " is not listening on 127.0.0.1:" + port + "; its log: " + Files.readString(log), e);
        }
        return daemon;
    }

    /**
     * Starts nginx in the foreground with one worker, its pid, logs and temporary files in {@code workdir}, serving
     * one {@code server} block that listens on {@code 127.0.0.1:port} and holds {@code locations} (nginx directives,
     * e.g. {@code location = /generate_204 { return 204; }}).
     */
    public static LoopbackDaemon nginx(Path workdir, int port, String locations) throws IOException {
        return nginxServers(workdir, port, """
                server {
                  listen 127.0.0.1:%d;
                  %s
                }
                """.formatted(port, locations));
    }

    /**
     * Starts nginx as {@link #nginx} does, with {@code servers} as its whole {@code server} blocks (each with its own
     * {@code listen}, e.g. {@code listen 127.0.0.1:PORT ssl}); it is ready once {@code 127.0.0.1:port} accepts.
     */
    public static LoopbackDaemon nginxServers(Path workdir, int port, String servers) throws IOException {
        Path config = Files.writeString(workdir.resolve("nginx.conf"), """
                master_process off;
                daemon off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/nginx-error.log;
                events { worker_connections 256; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/body;
                  proxy_temp_path %1$s/proxy;
                  fastcgi_temp_path %1$s/fastcgi;
                  uwsgi_temp_path %1$s/uwsgi;
                  scgi_temp_path %1$s/scgi;
                  %2$s
                }
                """.formatted(workdir, servers));
        return start(
                "nginx",
                List.of(
                        "nginx",
                        "-p",
                        workdir.toString(),
                        "-e",
                        workdir.resolve("nginx-error.log").toString(),
                        "-c",
                        config.toString()),
                port,
                workdir.resolve("nginx.out"));
    }

    /** Returns a TCP port on {@code 127.0.0.1} that was free a moment ago (the kernel's choice for port 0). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the program is still running. */
    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Returns the CPU time (user plus system) the program has used so far, in nanoseconds, at the kernel's clock-tick
     * resolution (10 ms on Debian).
     *
     * @throws IllegalStateException when the operating system does not report it
     */
    public long cpuNanos() {
        return process.info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("no CPU time reported for " + name))
                .toNanos();
    }

    /** Stops the program (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ", log " + log + ")";
    }
}
