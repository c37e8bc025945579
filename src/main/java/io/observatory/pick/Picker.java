package io.observatory.pick;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Picks one outbound for a balancer from its candidates with one of Xray's balancer strategies, or falls back to the
 * balancer's fallback tag, as Xray's {@code Balancer.PickOutbound} does ({@code app/router/balancing.go}).
 *
 * <p>Safe for concurrent use by gRPC handlers provided the random generator is: the only other state is the
 * {@link RoundRobinPositions}, which is thread-safe.
 */
public final class Picker {

    private final RandomGenerator random;
    private final RoundRobinPositions roundRobinPositions;

    /**
     * Creates a picker.
     *
     * @param random the source of the random choices of {@code random} and {@code least-load}; shared by concurrent
     *     calls, so it must be thread-safe ({@link java.util.Random} is, {@link java.util.SplittableRandom} is not)
     * @param roundRobinPositions where each {@code round-robin} balancer continues
     */
    public Picker(RandomGenerator random, RoundRobinPositions roundRobinPositions) {
        this.random = Objects.requireNonNull(random, "random");
        this.roundRobinPositions = Objects.requireNonNull(roundRobinPositions, "roundRobinPositions");
    }

    /**
     * Picks an outbound.
     * <ul>
     *   <li>{@code random}: uniformly among the usable candidates in tag order ({@code strategy_random.go}).</li>
     *   <li>{@code round-robin}: the usable candidates in tag order, in turn per {@code roundRobinKey}
     *       ({@code balancing.go}).</li>
     *   <li>{@code least-ping}: the alive candidate with the smallest delay ({@code strategy_leastping.go}), the
     *       first tag on a tie (Xray: the first in its status order).</li>
     *   <li>{@code least-load}: uniformly among the candidates least-load keeps ({@code strategy_leastload.go}; see
     *       {@link LeastLoadSettings}).</li>
     * </ul>
     * For {@code random} and {@code round-robin} the usable candidates are all of them without a fallback tag, and the
     * alive ones with one, as in Xray, which consults the observation for these two strategies only when a fallback
     * tag is set. The service passes only outbounds that were probed ({@code ObservatoryV1Service}); Xray also
     * picks, or counts as alive, selected tags without a status. When the strategy chooses none, the fallback tag is
     * the result.
     *
     * @param settings the balancer's strategy, fallback tag and least-load settings
     * @param roundRobinKey identifies the balancer whose round-robin position to use and advance (e.g. its subject
     *     selector); not {@code null}, unused by the other strategies
     * @param candidates the outbounds the balancer may use, with distinct tags, in any order
     * @return the chosen tag, flagged when it is the fallback; empty when the strategy chose none and there is no
     *     fallback tag
     */
    public Optional<PickResult> pick(PickSettings settings, String roundRobinKey, List<PickCandidate> candidates) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(roundRobinKey, "roundRobinKey");
        Optional<String> chosen = switch (settings.strategy()) {
            case RANDOM -> anyOf(usable(settings, candidates));
            case ROUND_ROBIN -> nextOf(roundRobinKey, usable(settings, candidates));
            case LEAST_PING -> LeastPing.pick(candidates);
            case LEAST_LOAD -> anyOf(new LeastLoad(settings.leastLoad()).selected(candidates));
        };
        if (chosen.isPresent()) {
            return chosen.map(tag -> new PickResult(tag, false));
        }
        return settings.hasFallback() ? Optional.of(new PickResult(settings.fallbackTag(), true)) : Optional.empty();
    }

    /** The tags {@code random} and {@code round-robin} choose from, in tag order (see {@link #pick}). */
    private static List<String> usable(PickSettings settings, List<PickCandidate> candidates) {
        return candidates.stream()
                .filter(candidate -> !settings.hasFallback() || candidate.alive())
                .map(PickCandidate::tag)
                .sorted(Comparator.naturalOrder())
                .toList();
    }

    private Optional<String> anyOf(List<String> tags) {
        return tags.isEmpty() ? Optional.empty() : Optional.of(tags.get(random.nextInt(tags.size())));
    }

    private Optional<String> nextOf(String roundRobinKey, List<String> tags) {
        return tags.isEmpty()
                ? Optional.empty()
                : Optional.of(tags.get(roundRobinPositions.next(roundRobinKey, tags.size())));
    }
}
