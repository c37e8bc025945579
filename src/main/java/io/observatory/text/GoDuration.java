package io.observatory.text;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.boot.convert.DurationStyle;

/**
 * Parses and prints durations the way Xray's configuration does, with Go's {@code time.ParseDuration} grammar, and
 * also accepts Spring Boot's own duration forms so that Spring users are not surprised.
 *
 * <p>Accepted forms:
 * <ul>
 *   <li>Go (Xray): an optional sign, then one or more {@code <decimal number><unit>} with units {@code ns},
 *       {@code us}, {@code µs} (U+00B5), {@code μs} (U+03BC), {@code ms}, {@code s}, {@code m}, {@code h}; numbers
 *       may have a fraction ({@code 1.5s}, {@code .5s}, {@code 1.s}); parts combine ({@code 2h45m},
 *       {@code 1h2m3.5s}); {@code 0} alone means zero.</li>
 *   <li>Spring's simple style: a whole number and a unit in any letter case, which adds days ({@code 1d}) and
 *       upper-case units ({@code 10S}).</li>
 *   <li>ISO-8601, as {@link Duration#parse(CharSequence)} reads it ({@code PT10S}, {@code P1DT2H}).</li>
 * </ul>
 * A bare number other than {@code 0} is rejected: Spring would read {@code 1000} as milliseconds, Xray rejects it
 * ("time: missing unit in duration"), and an operator copying an Xray config must not get a silently different
 * interval. Results are limited to Go's range, ±(2<sup>63</sup>−1) ns (about 292 years), in every form.
 */
public final class GoDuration {

    /** What a valid duration looks like, as shown in error messages. */
    public static final String EXPECTED = "a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms";

    /** The expectation shown when a part has a unit that Go does not know. */
    public static final String EXPECTED_KNOWN_UNIT =
            "a duration with units ns, us, µs, ms, s, m, h (e.g. 2h45m, 1.5s) or whole days (e.g. 1d)";

    /** The expectation shown when a duration does not fit in Go's signed 64-bit nanosecond count. */
    public static final String EXPECTED_RANGE =
            "a duration between -2562047h47m16.854775808s and 2562047h47m16.854775807s";

    private static final String EXPECTED_ISO_8601 = "an ISO-8601 duration, e.g. PT10S, PT1M30S, P1D";

    private static final Duration MIN = Duration.ofNanos(Long.MIN_VALUE);
    private static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

    /** 2<sup>63</sup> as an unsigned 64-bit value: Go accumulates magnitudes up to it. */
    private static final long TWO_POW_63 = Long.MIN_VALUE;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** Go's {@code unitMap} (time/format.go). */
    private static final Map<String, Long> GO_UNITS = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "\u00b5s", 1_000L,
            "\u03bcs", 1_000L,
            "ms", 1_000_000L,
            "s", NANOS_PER_SECOND,
            "m", 60 * NANOS_PER_SECOND,
            "h", 3_600 * NANOS_PER_SECOND);

    /** Spring's ISO-8601 detection pattern (a sign, then P). */
    private static final Pattern ISO_8601 = Pattern.compile("[+-]?[pP].*");

    /** Spring's simple style with a unit Go does not have: days, or a Go unit in another letter case. */
    private static final Pattern SPRING_ONLY_SIMPLE =
            Pattern.compile("[+-]?\\d+(?!(?:ns|us|ms|s|m|h)$)(?i:ns|us|ms|s|m|h|d)");

    private GoDuration() {}

    /**
     * Parses a duration in Go, Spring simple or ISO-8601 form (see the class comment). Does not trim.
     *
     * @param text the duration as written, e.g. {@code 2h45m}, {@code 1.5s}, {@code 1d} or {@code PT10S}
     * @return the duration, with nanosecond precision
     * @throws InvalidValueException (an {@link IllegalArgumentException}) naming the text and what was expected, e.g.
     *     {@code 1000 (expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)}
     */
    public static Duration parse(String text) {
        if (ISO_8601.matcher(text).matches()) {
            return parseSpring(DurationStyle.ISO8601, text);
        }
        if (SPRING_ONLY_SIMPLE.matcher(text).matches()) {
            return parseSpring(DurationStyle.SIMPLE, text);
        }
        return Duration.ofNanos(parseGo(text));
    }

    /**
     * Prints a duration the way Go's {@code Duration.String()} does, e.g. {@code 1h0m0s}, {@code 2h45m0s},
     * {@code 1.5s}, {@code 300ms}, {@code 1µs}, {@code 7ns}, {@code 0s}.
     *
     * @param duration a duration within Go's range (see {@link #EXPECTED_RANGE})
     * @return the Go form, which {@link #parse(String)} reads back to the same duration
     * @throws ArithmeticException when the duration is outside Go's range
     */
    public static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long magnitude = Math.abs(nanos); // Long.MIN_VALUE stays negative: read as unsigned below
        if (magnitude > 0 && magnitude < NANOS_PER_SECOND) {
            if (magnitude < 1_000) {
                return sign + magnitude + "ns";
            }
            if (magnitude < 1_000_000) {
                return sign + decimal(magnitude / 1_000, magnitude % 1_000, 3) + "\u00b5s";
            }
            return sign + decimal(magnitude / 1_000_000, magnitude % 1_000_000, 6) + "ms";
        }
        long totalSeconds = Long.divideUnsigned(magnitude, NANOS_PER_SECOND);
        String seconds = decimal(totalSeconds % 60, Long.remainderUnsigned(magnitude, NANOS_PER_SECOND), 9) + "s";
        String minutes = totalSeconds >= 60 ? totalSeconds / 60 % 60 + "m" : "";
        String hours = totalSeconds >= 3_600 ? totalSeconds / 3_600 + "h" : "";
        return sign + hours + minutes + seconds;
    }

    private static Duration parseSpring(DurationStyle style, String text) {
        Duration duration;
        try {
            duration = style.parse(text);
        } catch (IllegalArgumentException failure) {
            throw new InvalidValueException(
                    text, style == DurationStyle.SIMPLE ? EXPECTED_RANGE : EXPECTED_ISO_8601, failure);
        }
        if (duration.compareTo(MIN) < 0 || duration.compareTo(MAX) > 0) {
            throw new InvalidValueException(text, EXPECTED_RANGE);
        }
        return duration;
    }

    /** Go's {@code time.ParseDuration} (time/format.go), step by step, on an unsigned 64-bit magnitude. */
    private static long parseGo(String text) {
        int length = text.length();
        boolean negative = text.startsWith("-");
        int i = negative || text.startsWith("+") ? 1 : 0;
        if (text.substring(i).equals("0")) {
            return 0;
        }
        if (i == length) {
            throw new InvalidValueException(text, EXPECTED);
        }
        long total = 0;
        while (i < length) {
            int numberStart = i;
            char first = text.charAt(i);
            if (first != '.' && !isDigit(first)) {
                throw new InvalidValueException(text, EXPECTED);
            }
            long value = 0;
            for (; i < length && isDigit(text.charAt(i)); i++) {
                long next = value * 10 + (text.charAt(i) - '0');
                if (Long.compareUnsigned(value, Long.divideUnsigned(TWO_POW_63, 10)) > 0
                        || Long.compareUnsigned(next, TWO_POW_63) > 0) {
                    throw outOfRange(text);
                }
                value = next;
            }
            long fraction = 0;
            double scale = 1;
            if (i < length && text.charAt(i) == '.') {
                boolean saturated = false;
                for (i++; i < length && isDigit(text.charAt(i)); i++) {
                    // Go's leadingFraction: past 63 bits it stops accumulating precision instead of failing.
                    long next = fraction * 10 + (text.charAt(i) - '0');
                    saturated |= Long.compareUnsigned(fraction, Long.MAX_VALUE / 10) > 0
                            || Long.compareUnsigned(next, TWO_POW_63) > 0;
                    if (!saturated) {
                        fraction = next;
                        scale *= 10;
                    }
                }
            }
            if (first == '.' && i == numberStart + 1) { // no digits on either side of the point, e.g. ".s"
                throw new InvalidValueException(text, EXPECTED);
            }
            int unitStart = i;
            while (i < length && text.charAt(i) != '.' && !isDigit(text.charAt(i))) {
                i++;
            }
            if (i == unitStart) {
                throw new InvalidValueException(text, EXPECTED);
            }
            Long unit = GO_UNITS.get(text.substring(unitStart, i));
            if (unit == null) {
                throw new InvalidValueException(text, EXPECTED_KNOWN_UNIT);
            }
            if (Long.compareUnsigned(value, Long.divideUnsigned(TWO_POW_63, unit)) > 0) {
                throw outOfRange(text);
            }
            value *= unit;
            if (fraction != 0) {
                // Go computes the fraction in float64 ("nanosecond accurate for fractions of hours").
                double fractionValue = fraction == TWO_POW_63 ? 0x1p63 : fraction;
                value += (long) (fractionValue * (unit / scale));
                if (Long.compareUnsigned(value, TWO_POW_63) > 0) {
                    throw outOfRange(text);
                }
            }
            total += value;
            if (Long.compareUnsigned(total, TWO_POW_63) > 0) {
                throw outOfRange(text);
            }
        }
        if (!negative && total == TWO_POW_63) {
            throw outOfRange(text);
        }
        return negative ? -total : total;
    }

    private static InvalidValueException outOfRange(String text) {
        return new InvalidValueException(text, EXPECTED_RANGE);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Formats {@code whole.fraction} with {@code digits} fraction digits, trailing zeros and lone point dropped. */
    private static String decimal(long whole, long fraction, int digits) {
        return fraction == 0
                ? Long.toString(whole)
                : whole + "." + String.format("%0" + digits + "d", fraction).replaceFirst("0+$", "");
    }
}
