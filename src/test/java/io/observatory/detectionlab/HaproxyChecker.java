package io.observatory.detectionlab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy as the reference health checker: {@code haproxy -db} (foreground, one process) in the root namespace with
 * {@code nbthread 1}, one backend {@code targets} whose servers are checked with {@code option httpchk GET <path>},
 * {@code http-check expect status 204} and {@code check inter … fall … rise … fastinter …}; its only listener is
 * a frontend on 127.0.0.1 (HAProxy refuses to run without one), and its verdicts are read with {@code show stat} on a
 * stats socket in the work directory. Every check's result and every state change goes to its standard error, which
 * is {@code <work-dir>/haproxy.log} ({@code option log-health-checks}, printed as warnings in foreground mode).
 */
final class HaproxyChecker implements AutoCloseable {

    /** A server's line of {@code show stat}: {@code status} as HAProxy prints it, its check counters. */
    record ServerStat(String status, String checkStatus, long failedChecks, long downs) {

        /** {@code UP}, or {@code UP 1/3} (still up, the fall count has started): HAProxy sends it traffic. */
        boolean up() {
            return status.startsWith("UP");
        }

        /** {@code DOWN}, or {@code DOWN 1/2} (still down, the rise count has started). */
        boolean down() {
            return status.startsWith("DOWN");
        }
    }

    private static final String BACKEND = "targets";
    private static final int TAIL_LINES = 30;

    private final Process process;
    private final Path socket;
    private final Path log;

    private HaproxyChecker(Process process, Path socket, Path log) {
        this.process = process;
        this.socket = socket;
        this.log = log;
    }

    /**
     * Writes {@code <work-dir>/haproxy.cfg} and starts HAProxy on it.
     *
     * @param servers   server name to its {@code address:port}, checked with {@code GET path}
     * @param interval  {@code inter}: the time between checks of a server in a steady state
     * @param fall      consecutive failed checks that take a server down
     * @param rise      consecutive successful checks that bring it up
     * @param fastInterval {@code fastinter}: the time between checks while a server is going up or down
     * @param timeout   {@code timeout connect} and {@code timeout check}: HAProxy allows min(connect, inter) to connect
     *                  and then {@code timeout check} for the response
     */
    static HaproxyChecker start(
            Path workDir,
            Map<String, String> servers,
            String path,
            Duration interval,
            int fall,
            int rise,
            Duration fastInterval,
            Duration timeout)
            throws IOException {
        Path socket = workDir.resolve("haproxy.sock");
        Path log = workDir.resolve("haproxy.log");
        StringBuilder config = new StringBuilder()
                .append("global\n")
                .append("  nbthread 1\n")
                .append("  stats socket ")
                .append(socket)
                .append(" mode 600 level admin\n")
                .append("defaults\n")
                .append("  mode http\n")
                .append("  option log-health-checks\n")
                .append("  timeout connect ")
                .append(timeout.toMillis())
                .append("ms\n")
                .append("  timeout check ")
                .append(timeout.toMillis())
                .append("ms\n")
                .append("  timeout client 5s\n")
                .append("  timeout server 5s\n")
                .append("frontend lab\n")
                .append("  bind 127.0.0.1:")
                .append(LoopbackPorts.free())
                .append('\n')
                .append("  default_backend ")
                .append(BACKEND)
                .append('\n')
                .append("backend ")
                .append(BACKEND)
                .append('\n')
                .append("  option httpchk GET ")
                .append(path)
                .append('\n')
                .append("  http-check expect status 204\n")
                .append("  default-server check inter ")
                .append(interval.toMillis())
                .append("ms fall ")
                .append(fall)
                .append(" rise ")
                .append(rise)
                .append(" fastinter ")
                .append(fastInterval.toMillis())
                .append("ms\n");
        servers.forEach((name, address) -> config.append("  server ")
                .append(name)
                .append(' ')
                .append(address)
                .append('\n'));
        Path file = workDir.resolve("haproxy.cfg");
        Files.writeString(file, config);
        Process process = new ProcessBuilder("haproxy", "-db", "-f", file.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.getOutputStream().close();
        return new HaproxyChecker(process, socket, log);
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * The backend's servers as {@code show stat} lists them now, by name; empty while the stats socket does not
     * exist yet.
     *
     * @throws UncheckedIOException when the socket exists but cannot be read
     */
    Map<String, ServerStat> servers() {
        Map<String, ServerStat> servers = new LinkedHashMap<>();
        if (!Files.exists(socket)) {
            return servers;
        }
        String csv = command("show stat");
        List<String> lines = csv.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
            throw new IllegalStateException("show stat answered " + csv);
        }
        List<String> header = Arrays.asList(lines.get(0).substring(2).split(",", -1));
        int proxy = header.indexOf("pxname");
        int name = header.indexOf("svname");
        int status = header.indexOf("status");
        int checkStatus = header.indexOf("check_status");
        int failed = header.indexOf("chkfail");
        int downs = header.indexOf("chkdown");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            if (fields.length == header.size() && fields[proxy].equals(BACKEND) && !fields[name].equals("BACKEND")) {
                servers.put(
                        fields[name],
                        new ServerStat(
                                fields[status],
                                fields[checkStatus],
                                Long.parseLong(fields[failed]),
                                Long.parseLong(fields[downs])));
            }
        }
        return servers;
    }

    /** One command on the stats socket; HAProxy answers and closes the connection (non-interactive mode). */
    private String command(String command) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII)));
            return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("HAProxy stats socket " + socket + ": " + command, e);
        }
    }

    /** E.g. {@code haproxy (pid 4711, exited 1)}, with the last lines of its log. */
    String describeWithLog() {
        String state = process.isAlive() ? "running" : "exited " + process.exitValue();
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException e) {
            lines = List.of("(cannot read " + log + ": " + e + ")");
        }
        return "haproxy (pid " + process.pid() + ", " + state + "), last lines of " + log + ":\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }

    /** SIGTERM (HAProxy's hard stop), up to 5 s, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
