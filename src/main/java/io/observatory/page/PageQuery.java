package io.observatory.page;

import io.observatory.health.HealthState;
import io.observatory.text.QuotedText;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.util.MultiValueMap;

/**
 * Which outbounds a client of the status page shows: those whose tag starts with {@code prefix} and whose verdict is
 * one of {@code verdicts}, in tag order, from {@code offset} on, at most {@code limit}. Read from the query string of
 * {@code /status/api/outbounds} and {@code /status/api/stream}: {@code prefix} (default: every outbound),
 * {@code verdict} (a comma-separated list of {@code healthy}, {@code degraded}, {@code unhealthy}, {@code unknown};
 * default: all), {@code offset} (default 0) and {@code limit} (default {@value #DEFAULT_LIMIT}, at most
 * {@value #MAX_LIMIT}).
 *
 * @param prefix   a tag prefix; empty for every outbound
 * @param verdicts the verdicts shown, never empty
 * @param offset   the first position shown among the matching outbounds, from 0
 * @param limit    how many rows at most, 1 to {@value #MAX_LIMIT}
 */
record PageQuery(String prefix, Set<HealthState> verdicts, int offset, int limit) {

    /** Rows of a page when the client does not say. */
    static final int DEFAULT_LIMIT = 100;

    /** Rows of a page at most: what one response or one stream batch carries at most. */
    static final int MAX_LIMIT = 500;

    /** Longest prefix, in characters (a v1 API tag prefix has at most 256 bytes). */
    static final int MAX_PREFIX_CHARS = 256;

    private static final String VERDICTS = "healthy, degraded, unhealthy or unknown";

    PageQuery {
        Objects.requireNonNull(prefix, "prefix");
        verdicts = Set.copyOf(verdicts);
    }

    /**
     * Reads the query string.
     *
     * @throws IllegalArgumentException naming the parameter, its value and what is expected, e.g.
     *     {@code limit: 0 (expected: 1-500)}
     */
    static PageQuery from(MultiValueMap<String, String> parameters) {
        String prefix = Objects.requireNonNullElse(parameters.getFirst("prefix"), "");
        if (prefix.length() > MAX_PREFIX_CHARS) {
            throw new IllegalArgumentException(
                    "prefix: " + prefix.length() + " characters (expected: at most " + MAX_PREFIX_CHARS + ")");
        }
        return new PageQuery(
                prefix,
                verdicts(parameters.getFirst("verdict")),
                number(parameters.getFirst("offset"), "offset", 0, 0, Integer.MAX_VALUE),
                number(parameters.getFirst("limit"), "limit", DEFAULT_LIMIT, 1, MAX_LIMIT));
    }

    /** The prefixes {@link io.observatory.snapshot.Observation#matching} takes: none for every outbound. */
    List<String> prefixes() {
        return prefix.isEmpty() ? List.of() : List.of(prefix);
    }

    private static Set<HealthState> verdicts(@Nullable String list) {
        if (list == null || list.isBlank()) {
            return EnumSet.allOf(HealthState.class);
        }
        Set<HealthState> verdicts = EnumSet.noneOf(HealthState.class);
        for (String name : list.split(",", -1)) {
            HealthState state = Arrays.stream(HealthState.values())
                    .filter(candidate ->
                            candidate.name().toLowerCase(Locale.ROOT).equals(name.strip()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("verdict: " + QuotedText.quote(name, 64)
                            + " (expected: a comma-separated list of " + VERDICTS + ")"));
            verdicts.add(state);
        }
        return verdicts;
    }

    private static int number(@Nullable String value, String name, int absent, int min, int max) {
        if (value == null) {
            return absent;
        }
        String expected = max == Integer.MAX_VALUE ? ">= " + min : min + "-" + max;
        try {
            int number = Integer.parseInt(value.strip());
            if (number < min || number > max) {
                throw new IllegalArgumentException(name + ": " + number + " (expected: " + expected + ")");
            }
            return number;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    name + ": " + QuotedText.quote(value, 64) + " (expected: a whole number, " + expected + ")", e);
        }
    }
}
