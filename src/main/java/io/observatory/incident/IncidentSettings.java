package io.observatory.incident;

import io.observatory.config.ConfigSection;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.incidents}: remembering every period a subject spends in a bad state. The database is Spring's
 * own {@code spring.datasource.*}: by default the SQLite file {@code observatory.db} in the working directory;
 * PostgreSQL ({@code jdbc:postgresql://…}) for several replicas sharing one history. Fixed for the process.
 *
 * @param enabled   whether incidents are recorded and served. Default: true
 * @param degraded  whether an outbound judged DEGRADED by its own evidence opens an incident too (a warning), not
 *                  only UNHEALTHY. Default: false
 * @param retention how long a resolved incident is kept, 1h-3650d; older ones are deleted every hour. Default: 90d
 * @param queue     the most transitions kept in memory while the database is slow or down, 1-1,000,000; beyond it
 *                  new ones are dropped and counted ({@code observatory_incidents_dropped_total}). About 400 bytes
 *                  each. Default: 10000
 */
@ConfigurationProperties("observatory.incidents")
public record IncidentSettings(
        @DefaultValue("true") boolean enabled,

        @DefaultValue("false") boolean degraded,

        @DefaultValue("90d")
        @DurationMin(hours = 1, message = RETENTION_EXPECTED)
        @DurationMax(days = 3650, message = RETENTION_EXPECTED)
        Duration retention,

        @DefaultValue("10000")
        @Min(value = 1, message = QUEUE_EXPECTED)
        @Max(value = 1_000_000, message = QUEUE_EXPECTED)
        int queue) {

    /** The incidents' section of the configuration; its settings take effect at start-up only. */
    public static final ConfigSection<IncidentSettings> SECTION = new ConfigSection<>() {
        @Override
        public String key() {
            return "incidents";
        }

        @Override
        public Class<IncidentSettings> type() {
            return IncidentSettings.class;
        }

        @Override
        public List<String> startUpOnly() {
            return List.of("enabled", "degraded", "retention", "queue");
        }
    };

    private static final String RETENTION_EXPECTED = "a duration from 1h up to 3650d";
    private static final String QUEUE_EXPECTED = "from 1 up to 1000000";
}
