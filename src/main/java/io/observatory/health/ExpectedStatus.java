package io.observatory.health;

import io.observatory.text.InvalidValueException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which HTTP statuses count as a successful probe ({@code observatory.*.expected-status}): a single status
 * ({@code 204}), an inclusive range ({@code 200-299}) or a {@code /}-separated list of both
 * ({@code 200/204/301-399}). The default, {@link #ANY}, accepts every status, as Xray does.
 */
public final class ExpectedStatus {

    /** What a valid value looks like, as one-line reports say it. */
    public static final String EXPECTED =
            "any, or HTTP statuses 100-599 as N, N-M or a /-separated list, e.g. 204, 200-299, 200/204/301-399";

    /** Accepts every status the response carries, 999 included (Xray's behaviour, the default). */
    public static final ExpectedStatus ANY =
            new ExpectedStatus(List.of(new Range(Integer.MIN_VALUE, Integer.MAX_VALUE)), "any");

    private static final Pattern PART = Pattern.compile("(\\d{3})(?:-(\\d{3}))?");

    private final List<Range> ranges;
    private final String text;

    private ExpectedStatus(List<Range> ranges, String text) {
        this.ranges = ranges;
        this.text = text;
    }

    /**
     * Parses {@code any} (in any letter case, surrounding blanks ignored), or {@code N}, {@code N-M} or a
     * {@code /}-separated list of them, each status in 100-599 and {@code N <= M}.
     *
     * @throws InvalidValueException if {@code text} does not parse, e.g. {@code 99 (expected: any, or HTTP statuses
     *     100-599 as N, N-M or a /-separated list, e.g. 204, 200-299, 200/204/301-399)}
     */
    public static ExpectedStatus parse(String text) {
        if (text.strip().equalsIgnoreCase("any")) {
            return ANY;
        }
        List<Range> ranges = new ArrayList<>();
        for (String part : text.split("/", -1)) {
            Matcher matcher = PART.matcher(part.strip());
            if (!matcher.matches()) {
                throw new InvalidValueException(text, EXPECTED);
            }
            int from = Integer.parseInt(matcher.group(1));
            int to = matcher.group(2) == null ? from : Integer.parseInt(matcher.group(2));
            if (from < 100 || to > 599 || from > to) {
                throw new InvalidValueException(text, EXPECTED);
            }
            ranges.add(new Range(from, to));
        }
        return new ExpectedStatus(List.copyOf(ranges), text.strip());
    }

    /** Whether a probe that received HTTP status {@code status} succeeded. */
    public boolean matches(int status) {
        return ranges.stream().anyMatch(range -> status >= range.from && status <= range.to);
    }

    /** The text this was parsed from ({@code "any"} for {@link #ANY}). */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExpectedStatus that && ranges.equals(that.ranges);
    }

    @Override
    public int hashCode() {
        return ranges.hashCode();
    }

    private record Range(int from, int to) {}
}
