package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import io.observatory.text.Redaction;
import java.math.BigDecimal;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One line of a configuration report in Armeria's style, {@code property: found (expected: what)}, e.g.
 * {@code observatory.outbounds[1].port: 70000 (expected: 1-65535)}.
 *
 * <p>Found values never print a secret: a non-empty value of a property whose name looks secret
 * ({@link Redaction#isSecretName(String)}, e.g. {@code password}) prints as {@link Redaction#MASK}, and the password
 * of a URL's user-info is masked. Blanks and control characters stay visible ({@link InvalidValueException#printable}).
 *
 * @param property the full property to change, e.g. {@code observatory.standard.probe-intreval}
 * @param found    what was found there, printable and free of secrets, e.g. {@code 5s} or {@code (a nested map)}
 * @param expected what belongs there
 */
record ReportLine(String property, String found, String expected) {

    /** Returns the one-line form. */
    String describe() {
        return property + ": " + found + " (expected: " + expected + ")";
    }

    /**
     * A value as a report prints it: durations in Go form ({@code 1m0s}), decimals as written ({@code 0.3}, not
     * {@code 0.30}), text with secrets masked; {@code null} as {@code (none)}.
     */
    static String printable(String property, @Nullable Object value) {
        if (value instanceof Duration duration) {
            return GoDuration.format(duration);
        }
        if (value instanceof Double || value instanceof Float) {
            return decimal(((Number) value).doubleValue());
        }
        String text = value == null ? null : value.toString();
        return InvalidValueException.printable(text == null || text.isEmpty() ? text : masked(property, text));
    }

    /** Non-empty text as a report may print it for {@code property}: masked whole when the name looks secret. */
    static String masked(String property, String text) {
        return Redaction.isSecretName(property) ? Redaction.MASK : Redaction.redact(text);
    }

    /** A decimal as a user writes it: {@code 0.3}, {@code 1}, {@code 0.0001}; {@code NaN} and infinities as Java does. */
    private static String decimal(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
