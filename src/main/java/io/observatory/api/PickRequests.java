package io.observatory.api;

import static io.observatory.api.TagPrefixes.invalid;

import io.observatory.api.v1.LeastLoadSettings;
import io.observatory.api.v1.PickRequest;
import io.observatory.pick.BalancerStrategy;
import io.observatory.pick.CostWeight;
import io.observatory.pick.PickSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@code Pick} request's strategy, fallback tag and least-load settings into {@link PickSettings}, answering
 * INVALID_ARGUMENT with the request's own field names. Pure.
 */
final class PickRequests {

    /** The pick package's setting names and the request fields they come from. */
    private static final Map<String, String> LEAST_LOAD_FIELDS = Map.of(
            "expected", "least_load.expected",
            "max-rtt", "least_load.max_rtt_nanos",
            "tolerance", "least_load.tolerance",
            "baselines", "least_load.baselines_nanos",
            "costs", "least_load.costs");

    private PickRequests() {}

    /** The request's strategy, fallback and least-load settings; INVALID_ARGUMENT naming a bad value. */
    static PickSettings settings(PickRequest request) {
        String fallback = request.getFallbackTag();
        if (fallback.getBytes(StandardCharsets.UTF_8).length > TagPrefixes.MAX_PREFIX_BYTES
                || TagPrefixes.hasControlCharacters(fallback)
                || (!fallback.isEmpty() && fallback.isBlank())) {
            throw invalid("fallback_tag: " + TagPrefixes.quote(fallback) + " (expected: empty or an outbound tag of at"
                    + " most " + TagPrefixes.MAX_PREFIX_BYTES + " bytes without control characters)");
        }
        LeastLoadSettings leastLoad = request.getLeastLoad();
        try {
            List<CostWeight> costs = leastLoad.getCostsList().stream()
                    .map(cost -> new CostWeight(cost.getMatch(), cost.getRegexp(), cost.getValue()))
                    .toList();
            BalancerStrategy strategy = request.getStrategy().isEmpty()
                    ? BalancerStrategy.RANDOM
                    : BalancerStrategy.fromName(request.getStrategy());
            return new PickSettings(
                    strategy,
                    fallback,
                    new io.observatory.pick.LeastLoadSettings(
                            leastLoad.getExpected(),
                            Duration.ofNanos(leastLoad.getMaxRttNanos()),
                            leastLoad.getTolerance(),
                            leastLoad.getBaselinesNanosList().stream()
                                    .map(Duration::ofNanos)
                                    .toList(),
                            costs));
        } catch (IllegalArgumentException e) {
            throw invalid(inRequestTerms(String.valueOf(e.getMessage())));
        }
    }

    /**
     * A pick settings message with its field named as in the request, e.g. {@code max-rtt: -1ns (...)} →
     * {@code least_load.max_rtt_nanos: -1ns (...)}.
     */
    private static String inRequestTerms(String message) {
        int colon = message.indexOf(':');
        String field = colon < 0 ? "" : message.substring(0, colon);
        int dot = field.indexOf('.');
        String head = dot < 0 ? field : field.substring(0, dot);
        String requestField = LEAST_LOAD_FIELDS.get(head);
        return requestField == null ? message : requestField + message.substring(head.length());
    }
}
