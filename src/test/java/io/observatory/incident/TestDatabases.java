package io.observatory.incident;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.observatory.testing.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The databases the incident tests run on, each test on a new, empty one: an SQLite file in a temporary directory, or
 * a database on one PostgreSQL server started for the test class. Closes the pools it made.
 */
public final class TestDatabases implements AutoCloseable {

    /** The kinds every incident test runs on. */
    public static final List<String> KINDS = List.of("sqlite", "postgresql");

    private static final AtomicInteger NEXT = new AtomicInteger();

    private final List<HikariDataSource> pools = new ArrayList<>();
    private PostgresServer postgres;

    /** A JDBC URL of a new, empty database of {@code kind}. */
    public String newUrl(String kind) throws IOException, SQLException {
        return switch (kind) {
            case "sqlite" ->
                "jdbc:sqlite:"
                        + Files.createTempDirectory("observatory-incidents-").resolve("observatory.db");
            case "postgresql" -> postgres().newDatabase("incidents_" + NEXT.incrementAndGet());
            default -> throw new IllegalArgumentException("kind: " + kind);
        };
    }

    /** A pool on {@code url}: connections time out after 250 ms, so an outage shows at once. */
    public HikariDataSource pool(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(250);
        config.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(config);
        pools.add(pool);
        return pool;
    }

    /** The PostgreSQL server, started on first use. */
    public PostgresServer postgres() throws IOException {
        if (postgres == null) {
            postgres = PostgresServer.start();
        }
        return postgres;
    }

    /** Where an SQLite URL's file lies. */
    public static Path sqliteFile(String url) {
        String path = url.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        return Path.of(query < 0 ? path : path.substring(0, query));
    }

    @Override
    public void close() throws IOException {
        pools.forEach(HikariDataSource::close);
        pools.clear();
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }
}
