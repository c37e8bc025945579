package io.observatory.incident.store;

import io.observatory.incident.Incident;
import io.observatory.incident.IncidentEvent;
import io.observatory.incident.Transition;
import io.observatory.snapshot.Condition;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.Condition.Vantage;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The incidents' table over JDBC, the same SQL for SQLite and PostgreSQL. The database decides who opened and who
 * resolved each incident: a partial unique index allows one open incident per subject, so of several replicas
 * recording the same transition exactly one insert or update changes a row, and only that replica's event is
 * {@linkplain IncidentEvent#ours ours}. Thread-safe (a connection pool); blocking, so never called on the writer.
 */
public final class IncidentRepository {

    /** Flyway's history table, named for this service so that it can share a database. */
    static final String HISTORY_TABLE = "observatory_incident_schema_history";

    /**
     * How far apart two replicas may judge the same transition: their clocks and their probes' timing. An incident
     * another replica opened within it after this replica's opening is the same period.
     */
    static final Duration REPLICA_SKEW = Duration.ofSeconds(30);

    private static final String COLUMNS =
            "id, subject, source, kind, severity, reason, labels, evidence, opened_at, resolved_at, resolution";
    private static final Logger log = LoggerFactory.getLogger(IncidentRepository.class);
    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {};
    private static final TypeReference<List<Vantage>> EVIDENCE = new TypeReference<>() {};

    private final DataSource dataSource;
    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final JsonMapper json = JsonMapper.builder().build();

    /** @param dataSource Spring's {@code spring.datasource.*} pool */
    public IncidentRepository(DataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbc = JdbcClient.create(dataSource);
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /**
     * Creates or upgrades the schema (Flyway, {@code classpath:db/incidents}).
     *
     * @throws org.flywaydb.core.api.FlywayException when the database cannot be reached or migrated
     */
    public void migrate() {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/incidents")
                .table(HISTORY_TABLE)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }

    /** Every open incident, oldest first. */
    public List<Incident> open() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM incident WHERE resolved_at IS NULL ORDER BY opened_at, id")
                .query(this::incident)
                .list();
    }

    /**
     * Records {@code transitions} in order in one transaction.
     *
     * @return what each changed, in order: an open or resolved incident, ours or another's
     * @throws org.springframework.dao.DataAccessException when the database fails; nothing of the batch is recorded
     */
    public List<IncidentEvent> apply(List<Transition> transitions) {
        List<IncidentEvent> events = new ArrayList<>();
        transactions.executeWithoutResult(status -> {
            for (Transition transition : transitions) {
                if (transition instanceof Transition.Open open) {
                    open(open, events);
                } else if (transition instanceof Transition.Resolve resolve) {
                    resolve(resolve, events);
                }
            }
        });
        return events;
    }

    /**
     * Deletes the incidents resolved before {@code before}.
     *
     * @return how many were deleted
     */
    public int prune(Instant before) {
        return jdbc.sql("DELETE FROM incident WHERE resolved_at IS NOT NULL AND resolved_at < :before")
                .param("before", before.toEpochMilli())
                .update();
    }

    /**
     * One page of incidents, newest first (by opening, then id).
     *
     * @param query what to list
     */
    public List<Incident> list(IncidentQuery query) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM incident WHERE 1 = 1");
        Map<String, Object> params = new HashMap<>();
        if (!query.subjectPrefix().isEmpty()) {
            sql.append(" AND substr(subject, 1, :prefixLength) = :prefix");
            // Both databases count characters (code points), as codePointCount does; String.length counts UTF-16 units.
            params.put(
                    "prefixLength",
                    query.subjectPrefix()
                            .codePointCount(0, query.subjectPrefix().length()));
            params.put("prefix", query.subjectPrefix());
        }
        switch (query.state()) {
            case OPEN -> sql.append(" AND resolved_at IS NULL");
            case RESOLVED -> sql.append(" AND resolved_at IS NOT NULL");
            case ANY -> {}
        }
        Instant from = query.from();
        if (from != null) {
            sql.append(" AND (resolved_at IS NULL OR resolved_at >= :from)");
            params.put("from", from.toEpochMilli());
        }
        Instant to = query.to();
        if (to != null) {
            sql.append(" AND opened_at < :to");
            params.put("to", to.toEpochMilli());
        }
        IncidentQuery.Position after = query.after();
        if (after != null) {
            sql.append(" AND (opened_at < :afterOpened OR (opened_at = :afterOpened AND id < :afterId))");
            params.put("afterOpened", after.openedAt().toEpochMilli());
            params.put("afterId", after.id());
        }
        sql.append(" ORDER BY opened_at DESC, id DESC LIMIT :limit");
        params.put("limit", query.limit());
        return jdbc.sql(sql.toString()).params(params).query(this::incident).list();
    }

    private void open(Transition.Open open, List<IncidentEvent> events) {
        Condition condition = open.condition();
        Instant at = millis(open.at());
        Incident existing = openOf(condition.subject()).orElse(null);
        if (existing != null) {
            if (existing.kind().equals(condition.kind())) {
                events.add(new IncidentEvent(IncidentEvent.Type.OPENED, existing, false));
                return;
            }
            if (existing.openedAt().isAfter(at)) {
                return;
            }
            resolve(existing, at, "became " + condition.kind(), events);
        } else {
            Incident covering =
                    covering(condition.subject(), condition.kind(), at).orElse(null);
            if (covering != null) {
                events.add(new IncidentEvent(IncidentEvent.Type.OPENED, covering, false));
                return;
            }
        }
        Incident incident = new Incident(
                UUID.randomUUID().toString(),
                condition.subject(),
                open.source(),
                condition.kind(),
                condition.severity(),
                condition.reason(),
                condition.labels(),
                condition.evidence(),
                at,
                null,
                "");
        int inserted = jdbc.sql("INSERT INTO incident (" + COLUMNS + ") VALUES (:id, :subject, :source, :kind,"
                        + " :severity, :reason, :labels, :evidence, :openedAt, NULL, '')"
                        + " ON CONFLICT (subject) WHERE resolved_at IS NULL DO NOTHING")
                .param("id", incident.id())
                .param("subject", incident.subject())
                .param("source", incident.source())
                .param("kind", incident.kind())
                .param("severity", incident.severity().name())
                .param("reason", incident.reason())
                .param("labels", json.writeValueAsString(incident.labels()))
                .param("evidence", json.writeValueAsString(incident.evidence()))
                .param("openedAt", at.toEpochMilli())
                .update();
        if (inserted == 1) {
            events.add(new IncidentEvent(IncidentEvent.Type.OPENED, incident, true));
        } else {
            openOf(condition.subject())
                    .ifPresent(other -> events.add(new IncidentEvent(IncidentEvent.Type.OPENED, other, false)));
        }
    }

    private void resolve(Transition.Resolve resolve, List<IncidentEvent> events) {
        Instant at = millis(resolve.at());
        Incident existing = openOf(resolve.subject()).orElse(null);
        if (existing != null
                && existing.kind().equals(resolve.kind())
                && !existing.openedAt().isAfter(at)) {
            resolve(existing, at, resolve.resolution(), events);
            return;
        }
        jdbc.sql("SELECT " + COLUMNS + " FROM incident WHERE subject = :subject AND kind = :kind"
                        + " AND resolved_at IS NOT NULL AND opened_at <= :at ORDER BY opened_at DESC LIMIT 1")
                .param("subject", resolve.subject())
                .param("kind", resolve.kind())
                .param("at", at.toEpochMilli())
                .query(this::incident)
                .optional()
                .ifPresent(other -> events.add(new IncidentEvent(IncidentEvent.Type.RESOLVED, other, false)));
    }

    private void resolve(Incident existing, Instant at, String resolution, List<IncidentEvent> events) {
        int updated = jdbc.sql("UPDATE incident SET resolved_at = :at, resolution = :resolution"
                        + " WHERE id = :id AND resolved_at IS NULL")
                .param("at", at.toEpochMilli())
                .param("resolution", resolution)
                .param("id", existing.id())
                .update();
        events.add(new IncidentEvent(IncidentEvent.Type.RESOLVED, existing.resolved(at, resolution), updated == 1));
    }

    /**
     * An incident of {@code kind} still open at {@code at}, or opened up to {@link #REPLICA_SKEW} after it: another
     * replica recorded this period and has resolved it already (this replica lags behind it, or judged a moment
     * earlier and records later).
     */
    private Optional<Incident> covering(String subject, String kind, Instant at) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM incident WHERE subject = :subject AND kind = :kind"
                        + " AND opened_at <= :latest AND resolved_at >= :at ORDER BY opened_at DESC LIMIT 1")
                .param("subject", subject)
                .param("kind", kind)
                .param("latest", at.plus(REPLICA_SKEW).toEpochMilli())
                .param("at", at.toEpochMilli())
                .query(this::incident)
                .optional();
    }

    private Optional<Incident> openOf(String subject) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM incident WHERE subject = :subject AND resolved_at IS NULL")
                .param("subject", subject)
                .query(this::incident)
                .optional();
    }

    private Incident incident(ResultSet row, int number) throws SQLException {
        long resolvedAt = row.getLong("resolved_at");
        boolean open = row.wasNull();
        return new Incident(
                row.getString("id"),
                row.getString("subject"),
                row.getString("source"),
                row.getString("kind"),
                severity(row.getString("severity")),
                row.getString("reason"),
                stored(row.getString("labels"), LABELS, Map.of()),
                stored(row.getString("evidence"), EVIDENCE, List.of()),
                Instant.ofEpochMilli(row.getLong("opened_at")),
                open ? null : Instant.ofEpochMilli(resolvedAt),
                Objects.requireNonNullElse(row.getString("resolution"), ""));
    }

    /**
     * A JSON column as stored; one this version cannot read (written by a newer one, or damaged) reads as
     * {@code empty}, so that one row cannot stop the store or a list.
     */
    private <T> T stored(@Nullable String text, TypeReference<T> type, T empty) {
        if (text == null) {
            return empty;
        }
        try {
            return json.readValue(text, type);
        } catch (JacksonException e) {
            log.warn("incident column not readable, shown empty: {}", e.getOriginalMessage());
            return empty;
        }
    }

    /** A stored severity; one this version does not know (written by a newer one) reads as critical. */
    private static Severity severity(@Nullable String stored) {
        return Arrays.stream(Severity.values())
                .filter(severity -> severity.name().equalsIgnoreCase(stored))
                .findFirst()
                .orElse(Severity.CRITICAL);
    }

    /** The stored precision: what a later read returns. */
    private static Instant millis(Instant at) {
        return Instant.ofEpochMilli(at.toEpochMilli());
    }
}
