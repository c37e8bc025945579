package io.observatory.pick;

import io.observatory.stats.HealthPingStats;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;

/**
 * Least-load: qualifies outbounds, ranks them by cost and keeps the best few, as Xray's {@code LeastLoadStrategy}
 * does ({@code app/router/strategy_leastload.go}); the caller then picks at random among those kept.
 *
 * <p>The <b>cost</b> of an outbound is its RTT deviation (burst statistics; for a standard-observer outbound its delay
 * stands in) times the square root of its weight from {@code costs}, truncated to whole nanoseconds; a weight given
 * as a value has Xray's float32 precision ({@link CostWeights}).
 */
final class LeastLoad {

    private static final long NANOS_PER_MILLI = 1_000_000;

    /** Xray's order: lower cost, then lower average RTT, then fewer failed samples, then more samples, then tag. */
    private static final Comparator<Ranked> BEST_FIRST = Comparator.comparingLong(Ranked::costNanos)
            .thenComparingLong(Ranked::averageNanos)
            .thenComparingInt(Ranked::fail)
            .thenComparing(Comparator.comparingInt(Ranked::all).reversed())
            .thenComparing(Ranked::tag);

    private final LeastLoadSettings settings;
    private final Duration maxRttWholeMillis;
    private final CostWeights weights;

    /** A qualified outbound with what it is ranked by; a standard-observer outbound counts 1 sample, 1 failed. */
    private record Ranked(String tag, long costNanos, long averageNanos, int fail, int all) {}

    LeastLoad(LeastLoadSettings settings) {
        this.settings = settings;
        this.maxRttWholeMillis = settings.maxRtt().truncatedTo(ChronoUnit.MILLIS);
        this.weights = new CostWeights(settings.costs());
    }

    /**
     * Returns the tags kept for the final random pick, best first.
     *
     * <p>Qualified: alive; delay below {@code max-rtt} when it is set; with burst statistics and a {@code tolerance}
     * above 0, a failure rate (fail / all) of at most the tolerance (no samples count as rate 0), the tolerance
     * compared at Xray's float32 precision ({@code strategy_leastload.go}, since Xray-core PR #6156): 0.7 is
     * 0.699999988, so 7 failed of 10 is above it, and a tolerance below float32's smallest value is 0.
     *
     * <p>Kept, from the best: none if none qualifies; all if {@code expected} exceeds the qualified count; otherwise,
     * without baselines, {@code max(expected, 1)}; with baselines, each baseline in turn extends the kept run over
     * outbounds whose cost is below it, stopping at the first baseline that reaches {@code max(expected, 1)}; a run
     * still shorter than {@code expected} is extended to it (with {@code expected} 0 it may stay empty).
     */
    List<String> selected(List<PickCandidate> candidates) {
        List<Ranked> ranked = candidates.stream()
                .filter(this::qualifies)
                .map(this::rank)
                .sorted(BEST_FIRST)
                .toList();
        return ranked.subList(0, keptCount(ranked)).stream().map(Ranked::tag).toList();
    }

    private boolean qualifies(PickCandidate candidate) {
        if (!candidate.alive()) {
            return false;
        }
        if (!settings.maxRtt().isZero()
                && Duration.ofMillis(candidate.delayMillis()).compareTo(maxRttWholeMillis) >= 0) {
            return false;
        }
        HealthPingStats burst = candidate.healthPing();
        float tolerance = (float) settings.tolerance();
        return tolerance == 0 || burst == null || burst.all() == 0 || (double) burst.fail() / burst.all() <= tolerance;
    }

    private Ranked rank(PickCandidate candidate) {
        double scale = Math.sqrt(weights.weightOf(candidate.tag()));
        HealthPingStats burst = candidate.healthPing();
        if (burst == null) {
            long delayNanos = candidate.delayMillis() * NANOS_PER_MILLI;
            return new Ranked(candidate.tag(), (long) (delayNanos * scale), delayNanos, 1, 1);
        }
        return new Ranked(
                candidate.tag(),
                (long) (burst.deviationNanos() * scale),
                burst.averageNanos(),
                burst.fail(),
                burst.all());
    }

    private int keptCount(List<Ranked> ranked) {
        int qualified = ranked.size();
        if (qualified == 0 || settings.expected() > qualified) {
            return qualified;
        }
        int wanted = Math.max(settings.expected(), 1);
        if (settings.baselines().isEmpty()) {
            return wanted;
        }
        int count = 0;
        for (Duration baseline : settings.baselines()) {
            while (count < qualified
                    && Duration.ofNanos(ranked.get(count).costNanos()).compareTo(baseline) < 0) {
                count++;
            }
            if (count >= wanted) {
                return count;
            }
        }
        return Math.max(count, settings.expected());
    }
}
