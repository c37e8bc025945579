package io.observatory.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL server from Debian's {@code postgresql} package: {@code initdb} into a fresh directory, then
 * {@code postgres} in the foreground on a {@code 127.0.0.1} port with trust authentication for the user
 * {@code observatory}. Run as root (CI), both run as the {@code postgres} system user through {@code setpriv}, which
 * execs, so the process handle is the server's own. {@link #stop} and {@link #start} keep the data: a database outage
 * and its end.
 */
public final class PostgresServer implements AutoCloseable {

    /** The superuser the cluster is created with. */
    public static final String USER = "observatory";

    private final Path directory;
    private final Path bin;
    private final int port;
    private LoopbackDaemon daemon;

    private PostgresServer(Path directory, Path bin, int port) throws IOException {
        this.directory = directory;
        this.bin = bin;
        this.port = port;
        this.daemon = launch();
    }

    /**
     * Creates a cluster in a new directory under {@code /tmp} and starts it.
     *
     * @throws AssertionError when Debian's PostgreSQL is not installed, or initdb or the server fails (with its output)
     */
    public static PostgresServer start() throws IOException {
        Path bin = binaries();
        Path directory = Files.createTempDirectory(Path.of("/tmp"), "observatory-pg-");
        Path data = directory.resolve("data");
        Files.createDirectory(data);
        if (root()) {
            UserPrincipal postgres =
                    directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            Files.setOwner(directory, postgres);
            Files.setOwner(data, postgres);
        }
        ExternalCommand.run(
                Duration.ofSeconds(60),
                asServerUser(List.of(
                        bin.resolve("initdb").toString(),
                        "-D",
                        data.toString(),
                        "-U",
                        USER,
                        "--auth=trust",
                        "-E",
                        "UTF8",
                        "--no-sync")));
        return new PostgresServer(directory, bin, LoopbackDaemon.freePort());
    }

    /** A JDBC URL of a new, empty database on this server. */
    public String newDatabase(String name) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url("postgres"), USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    /** The JDBC URL of {@code database}. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + USER;
    }

    /** Stops the server with a fast shutdown ({@code pg_ctl -m fast}: sessions are ended at once), keeping its data. */
    public void stop() {
        ExternalCommand.run(
                Duration.ofSeconds(30),
                asServerUser(List.of(
                        bin.resolve("pg_ctl").toString(),
                        "-D",
                        directory.resolve("data").toString(),
                        "-m",
                        "fast",
                        "-w",
                        "stop")));
        daemon.close();
    }

    /** Starts it again on the same port, with the same data. */
    public void restart() throws IOException {
        daemon = launch();
    }

    /** Stops the server and deletes its directory. */
    @Override
    public void close() throws IOException {
        if (daemon.alive()) {
            stop();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            List<Path> all =
                    new ArrayList<>(files.sorted(Comparator.reverseOrder()).toList());
            for (Path file : all) {
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * Starts the server and waits until it takes sessions: it accepts TCP connections while it is still starting up (a
     * restart after a fast shutdown recovers first) and refuses them then ({@code FATAL: the database system is
     * starting up}), so readiness is {@code pg_isready}'s, not the port's.
     */
    private LoopbackDaemon launch() throws IOException {
        LoopbackDaemon started = listening();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(this::ready);
        return started;
    }

    /** Whether {@code pg_isready} says the server accepts sessions. */
    private boolean ready() throws IOException, InterruptedException {
        Process check = new ProcessBuilder(
                        bin.resolve("pg_isready").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-q")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!check.waitFor(5, TimeUnit.SECONDS)) {
            check.destroyForcibly();
            return false;
        }
        return check.exitValue() == 0;
    }

    private LoopbackDaemon listening() throws IOException {
        return LoopbackDaemon.start(
                "postgres",
                asServerUser(List.of(
                        bin.resolve("postgres").toString(),
                        "-D",
                        directory.resolve("data").toString(),
                        "-p",
                        Integer.toString(port),
                        "-k",
                        directory.toString(),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        "-c",
                        "fsync=off")),
                port,
                Files.createTempFile("observatory-pg-", ".log"));
    }

    private static List<String> asServerUser(List<String> command) {
        if (!root()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(
                List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--reset-env"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The newest of Debian's {@code /usr/lib/postgresql/<version>/bin}. */
    private static Path binaries() throws IOException {
        Path versions = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(versions)) {
            throw new AssertionError(
                    "Debian's postgresql is not installed (no /usr/lib/postgresql): apt-get install" + " postgresql");
        }
        try (Stream<Path> listed = Files.list(versions)) {
            return listed.map(version -> version.resolve("bin"))
                    .filter(dir -> Files.isExecutable(dir.resolve("postgres")))
                    .max(Comparator.comparing(dir -> Integer.parseInt(
                            dir.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElseThrow(() -> new AssertionError("no postgres under /usr/lib/postgresql"));
        }
    }
}
