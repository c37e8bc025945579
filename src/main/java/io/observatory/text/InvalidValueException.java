package io.observatory.text;

import org.jspecify.annotations.Nullable;

/**
 * A value that does not have the expected form, reported in one line as {@code value (expected: what)}, e.g.
 * {@code 1000 (expected: a duration with a unit, e.g. 10s, 1.5s, 2h45m, 300ms)}.
 *
 * <p>Values are printed so that the line stays one line and blanks stay visible: {@code null} prints as
 * {@code (none)}, an empty value as {@code (empty)}; a value with surrounding blanks or with control characters prints
 * quoted, with control characters escaped.
 */
public class InvalidValueException extends IllegalArgumentException {

    private final @Nullable String value;
    private final String expected;

    /**
     * @param value    the rejected value as the user wrote it, or {@code null} when it is missing
     * @param expected what a valid value looks like, e.g. {@code 1-65535}
     */
    public InvalidValueException(@Nullable String value, String expected) {
        this(value, expected, null);
    }

    /** The same, with {@code cause}: the parse failure that revealed the problem, or {@code null}. */
    public InvalidValueException(@Nullable String value, String expected, @Nullable Throwable cause) {
        super(printable(value) + " (expected: " + expected + ")", cause);
        this.value = value;
        this.expected = expected;
    }

    /** Returns the rejected value, or {@code null} when it was missing. */
    public @Nullable String value() {
        return value;
    }

    /** Returns what a valid value looks like, e.g. {@code 1-65535}. */
    public String expected() {
        return expected;
    }

    /** Returns {@code value} as it should appear in a one-line message (see the class comment). */
    public static String printable(@Nullable String value) {
        if (value == null) {
            return "(none)";
        }
        if (value.isEmpty()) {
            return "(empty)";
        }
        boolean plain = value.strip().equals(value)
                && value.chars().noneMatch(Character::isISOControl)
                && !value.startsWith("\"");
        return plain ? value : QuotedText.quote(value, Integer.MAX_VALUE);
    }
}
