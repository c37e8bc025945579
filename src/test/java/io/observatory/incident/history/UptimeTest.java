package io.observatory.incident.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.observatory.incident.Incident;
import io.observatory.snapshot.Condition.Severity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Availability from incidents over a window, and the strip of days coloured by the worst incident. */
class UptimeTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    @Test
    void availabilityWhenOneCriticalHourTodayThenThe24HourShareLosesAnHour() {
        List<Incident> incidents =
                List.of(incident(Severity.CRITICAL, NOW.minus(Duration.ofHours(3)), NOW.minus(Duration.ofHours(2))));

        assertThat(Uptime.availability(incidents, NOW, Duration.ofDays(1))).isCloseTo(23.0 / 24, within(1e-9));
        assertThat(Uptime.availability(incidents, NOW, Duration.ofDays(30)))
                .isCloseTo(1 - 1.0 / (24 * 30), within(1e-9));
    }

    @Test
    void availabilityWhenOpenAndStartedBeforeTheWindowThenCountedFromTheWindowsStartUntilNow() {
        List<Incident> incidents = List.of(incident(Severity.CRITICAL, NOW.minus(Duration.ofDays(2)), null));

        assertThat(Uptime.availability(incidents, NOW, Duration.ofDays(1))).isZero();
        assertThat(Uptime.availability(incidents, NOW, Duration.ofDays(7))).isCloseTo(5.0 / 7, within(1e-9));
    }

    @Test
    void availabilityWhenOnlyWarningsThenFullyAvailable() {
        List<Incident> incidents = List.of(incident(Severity.WARNING, NOW.minus(Duration.ofHours(5)), null));

        assertThat(Uptime.availability(incidents, NOW, Duration.ofDays(1))).isEqualTo(1.0);
    }

    @Test
    void stripWhenIncidentsSpanDaysThenEachDayHasItsWorstOldestFirst() {
        List<Incident> incidents = List.of(
                incident(
                        Severity.WARNING,
                        NOW.minus(Duration.ofDays(3)),
                        NOW.minus(Duration.ofDays(3)).plusSeconds(60)),
                incident(
                        Severity.CRITICAL,
                        Instant.parse("2026-12-01T23:00:00Z"),
                        Instant.parse("2026-12-02T01:00:00Z")),
                incident(
                        Severity.WARNING, Instant.parse("2026-12-02T05:00:00Z"), Instant.parse("2026-12-02T06:00:00Z")),
                incident(
                        Severity.CRITICAL,
                        Instant.parse("2026-08-01T00:00:00Z"),
                        Instant.parse("2026-08-02T00:00:00Z")));

        int[] strip = Uptime.strip(incidents, NOW, 90);

        assertThat(strip).hasSize(90);
        assertThat(strip[89]).as("today").isEqualTo(Uptime.NONE);
        assertThat(strip[88])
                .as("Dec 2: the critical one's end outweighs the warning")
                .isEqualTo(Uptime.CRITICAL);
        assertThat(strip[87]).as("Dec 1").isEqualTo(Uptime.CRITICAL);
        assertThat(strip[86]).as("Nov 30").isEqualTo(Uptime.WARNING);
        assertThat(strip[0]).as("before the strip: not shown").isEqualTo(Uptime.NONE);
    }

    private static Incident incident(Severity severity, Instant opened, Instant resolved) {
        return new Incident(
                opened.toString(),
                "outbound/a",
                "outbounds",
                severity == Severity.CRITICAL ? "UNHEALTHY" : "DEGRADED",
                severity,
                "why",
                Map.of(),
                List.of(),
                opened,
                resolved,
                resolved == null ? "" : "now healthy");
    }
}
