package io.observatory.incident.history;

import io.observatory.incident.Incident;
import io.observatory.snapshot.Condition.Severity;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Availability computed from incidents, not from samples, as Gatus and Better Stack report it: the share of a window
 * during which the subject had no critical incident open (a warning — a pair cut, DEGRADED, NO_DATA — leaves it
 * available). A window reaches back from {@code now}; time before the subject's first incident counts as available.
 * And the strip of days: for each UTC day, the worst severity of the incidents that overlapped it. O(incidents).
 */
final class Uptime {

    /** A day of the strip with no incident. */
    static final int NONE = 0;

    /** A day with a warning incident at worst. */
    static final int WARNING = 1;

    /** A day with a critical incident. */
    static final int CRITICAL = 2;

    private Uptime() {}

    /**
     * The share of {@code window} before {@code now} without a critical incident open, 0-1.
     *
     * @param incidents the subject's incidents, any order; at most one open at a time
     */
    static double availability(List<Incident> incidents, Instant now, Duration window) {
        Instant start = now.minus(window);
        long down = 0;
        for (Incident incident : incidents) {
            if (incident.severity() != Severity.CRITICAL) {
                continue;
            }
            Instant from = incident.openedAt().isBefore(start) ? start : incident.openedAt();
            Instant to =
                    incident.resolvedAt() == null || incident.resolvedAt().isAfter(now) ? now : incident.resolvedAt();
            if (to.isAfter(from)) {
                down += Duration.between(from, to).toMillis();
            }
        }
        return Math.max(0, 1 - (double) down / window.toMillis());
    }

    /**
     * The worst severity of each of the {@code days} UTC days up to and including {@code now}'s, oldest first:
     * {@link #NONE}, {@link #WARNING} or {@link #CRITICAL}.
     */
    static int[] strip(List<Incident> incidents, Instant now, int days) {
        int[] strip = new int[days];
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        LocalDate first = today.minusDays(days - 1L);
        for (Incident incident : incidents) {
            int worst = incident.severity() == Severity.CRITICAL ? CRITICAL : WARNING;
            LocalDate from = LocalDate.ofInstant(incident.openedAt(), ZoneOffset.UTC);
            Instant end = incident.resolvedAt() == null ? now : incident.resolvedAt();
            LocalDate to = LocalDate.ofInstant(end, ZoneOffset.UTC);
            for (LocalDate day = from.isBefore(first) ? first : from;
                    !day.isAfter(to) && !day.isAfter(today);
                    day = day.plusDays(1)) {
                int index = (int) (day.toEpochDay() - first.toEpochDay());
                strip[index] = Math.max(strip[index], worst);
            }
        }
        return strip;
    }
}
