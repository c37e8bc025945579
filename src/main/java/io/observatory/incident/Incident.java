package io.observatory.incident;

import io.observatory.snapshot.Condition;
import io.observatory.snapshot.Condition.Severity;
import io.observatory.snapshot.Condition.Vantage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One period a subject spent, or spends, in one bad state, as stored. Immutable; about 500 bytes plus the evidence.
 *
 * @param id         the incident's identity, a random UUID chosen by the replica that opened it
 * @param subject    the subject, e.g. {@code server/s4} (see {@link Condition#subject})
 * @param source     who judges the subject: {@value IncidentTracker#OUTBOUNDS} or a capability part's name, e.g.
 *                   {@code mesh}
 * @param kind       the bad state, e.g. {@code BLOCKED}
 * @param severity   how urgent it is
 * @param reason     why, when it opened
 * @param labels     route, site, server, hop, error… (see {@link Condition#labels})
 * @param evidence   the vantage points that decided it
 * @param openedAt   when the transition into the bad state was judged (wall clock, millisecond precision)
 * @param resolvedAt when the subject left it; null while open
 * @param resolution how it ended, e.g. {@code recovered}, {@code became UNREACHABLE_FROM_SERVERS}; empty while open
 */
public record Incident(
        String id,
        String subject,
        String source,
        String kind,
        Severity severity,
        String reason,
        Map<String, String> labels,
        List<Vantage> evidence,
        Instant openedAt,
        @Nullable Instant resolvedAt,
        String resolution) {

    public Incident {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(reason, "reason");
        labels = Map.copyOf(labels);
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(openedAt, "openedAt");
        Objects.requireNonNull(resolution, "resolution");
    }

    /** Whether it is still open. */
    public boolean open() {
        return resolvedAt == null;
    }

    /** How long it lasted, or has lasted until {@code now} while open; never negative. */
    public Duration duration(Instant now) {
        Instant end = resolvedAt == null ? now : resolvedAt;
        return end.isBefore(openedAt) ? Duration.ZERO : Duration.between(openedAt, end);
    }

    /** The same incident, resolved at {@code at} for {@code why}. */
    public Incident resolved(Instant at, String why) {
        return new Incident(id, subject, source, kind, severity, reason, labels, evidence, openedAt, at, why);
    }
}
