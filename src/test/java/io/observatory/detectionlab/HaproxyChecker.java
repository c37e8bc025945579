package io.observatory.detectionlab;

import io.observatory.testing.HaproxyProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

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

    private final HaproxyProcess process;

    private HaproxyChecker(HaproxyProcess process) {
        this.process = process;
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
        StringBuilder config = new StringBuilder()
                .append("global\n")
                .append("  nbthread 1\n")
                .append("  ")
                .append(HaproxyProcess.statsSocket(workDir))
                .append('\n')
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
        return new HaproxyChecker(HaproxyProcess.start(workDir, config.toString()));
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.alive();
    }

    /**
     * The backend's servers as {@code show stat} lists them now, by name; empty while the stats socket does not
     * exist yet.
     *
     * @throws UncheckedIOException when the socket exists but cannot be read
     */
    Map<String, ServerStat> servers() {
        Map<String, ServerStat> servers = new LinkedHashMap<>();
        process.servers(BACKEND)
                .forEach((name, columns) -> servers.put(
                        name,
                        new ServerStat(
                                columns.get("status"),
                                columns.get("check_status"),
                                Long.parseLong(columns.get("chkfail")),
                                Long.parseLong(columns.get("chkdown")))));
        return servers;
    }

    /** E.g. {@code haproxy (pid 4711, exited 1)}, with the last lines of its log. */
    String describeWithLog() {
        return process.describeWithLog();
    }

    /** SIGTERM (HAProxy's hard stop), up to 5 s, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
