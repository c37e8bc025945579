package io.observatory.snapshot;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A subject in a bad state, as the snapshot shows it now: an outbound judged UNHEALTHY, a mesh server BLOCKED, an
 * entry point cut from one witness, a route served in panic. What an incident is opened for while the condition
 * holds and resolved for when it is gone. Immutable; about 300 bytes plus the evidence.
 *
 * @param subject  what is in the bad state, as a path whose first segment names its kind of subject:
 *                 {@code outbound/<tag>}, {@code server/<name>}, {@code entry-point/<server>/<entry point>},
 *                 {@code witness/<name>}, {@code route/<route>}; unique among the conditions of one snapshot
 * @param kind     the bad state, in upper snake case, e.g. {@code UNHEALTHY}, {@code BLOCKED}, {@code PAIR_CUT}; a
 *                 subject whose kind changes is a new condition
 * @param severity how urgent it is
 * @param reason   why, in one line, e.g. {@code checker cannot reach s4/main: w1 (site de) streak 3}
 * @param labels   a few low-cardinality facts to route and group by, e.g. {@code route}, {@code site},
 *                 {@code server}, {@code hop}, {@code error}; keys in lower snake case
 * @param evidence the vantage points whose observations decided it, e.g. the voters of a mesh verdict; empty when the
 *                 subject was judged from here alone
 */
public record Condition(
        String subject,
        String kind,
        Severity severity,
        String reason,
        Map<String, String> labels,
        List<Vantage> evidence) {

    public Condition {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(reason, "reason");
        labels = Map.copyOf(labels);
        evidence = List.copyOf(evidence);
    }

    /** How urgent a condition is; Alertmanager's and Prometheus's usual {@code severity} label values. */
    public enum Severity {
        /** Traffic is or may be lost: an outbound or a server out of rotation, a route in panic. */
        CRITICAL,
        /** Something is wrong short of that: a DEGRADED outbound, a pair cut, an unreliable witness, no data. */
        WARNING;

        /** The label value: {@code critical} or {@code warning}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One vantage point's observation behind a condition.
     *
     * @param name    who observed, e.g. a witness's name
     * @param site    where it stands, e.g. {@code de}; empty when unknown
     * @param checker whether it is a checker (a vantage point outside the censored network)
     * @param detail  what it saw, e.g. {@code cannot reach s4/main (streak 3)}
     */
    public record Vantage(String name, String site, boolean checker, String detail) {

        public Vantage {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(site, "site");
            Objects.requireNonNull(detail, "detail");
        }
    }
}
