package io.observatory.pick;

import io.observatory.text.GoDuration;
import io.observatory.text.QuotedText;
import java.time.Duration;

/**
 * Builds the one-line messages of rejected pick settings, {@code field: value (expected: what)}, which gRPC clients see
 * verbatim.
 */
final class SettingMessages {

    /** Longer client-supplied text is cut in messages, so that a huge value does not come back whole. */
    private static final int MAX_SHOWN_CHARACTERS = 64;

    private SettingMessages() {}

    /** Returns the exception for {@code field}, whose value prints as {@code shownValue}. */
    static IllegalArgumentException invalid(String field, String shownValue, String expected) {
        return new IllegalArgumentException(field + ": " + shownValue + " (expected: " + expected + ")");
    }

    /** Returns {@code text} in double quotes with quotes, backslashes and control characters escaped, cut if long. */
    static String quoted(String text) {
        return text == null ? "(none)" : QuotedText.quote(text, MAX_SHOWN_CHARACTERS);
    }

    /** Returns the duration as Go (and Xray configs) write it, e.g. {@code -1s}, {@code 1.5s}, {@code 300ms}. */
    static String duration(Duration duration) {
        if (duration == null) {
            return "(none)";
        }
        try {
            return GoDuration.format(duration);
        } catch (ArithmeticException beyondGoRange) {
            return duration.toString();
        }
    }
}
