package io.observatory.config;

import io.observatory.text.Redaction;
import io.observatory.text.InvalidValueException;

/**
 * An {@code observatory.*} setting that cannot be used, reported in one line in Armeria's style:
 * {@code property: value (expected: what)}, e.g. {@code observatory.outbounds[1].port: 70000 (expected: 1-65535)}.
 * {@link InvalidConfigFailureAnalyzer} turns it into Spring Boot's startup failure report.
 *
 * <p>Values never print a secret: a non-empty value of a property whose name looks secret
 * ({@link Redaction#isSecretName(String)}, e.g. {@code password}) prints as {@link Redaction#MASK}, and the password
 * of a URL's user-info is masked ({@link Redaction#redact(String)}). An empty value prints as {@code (empty)}.
 */
public class InvalidConfigException extends IllegalArgumentException {

    private final String property;
    private final String value;
    private final String expected;

    /**
     * Creates the exception.
     *
     * @param property full property path, e.g. {@code observatory.outbounds[1].port}
     * @param value the rejected value as the user wrote it, or {@code null} when it is missing
     * @param expected what a valid value looks like, e.g. {@code 1-65535}
     */
    public InvalidConfigException(String property, String value, String expected) {
        this(property, value, expected, null);
    }

    /**
     * Creates the exception with the failure that revealed the problem.
     *
     * @param property full property path, e.g. {@code observatory.probe.trusted-certificates}
     * @param value the rejected value as the user wrote it, or {@code null} when it is missing
     * @param expected what a valid value looks like
     * @param cause the underlying failure, or {@code null}; it must not carry a secret in its message
     */
    public InvalidConfigException(String property, String value, String expected, Throwable cause) {
        super(describe(property, value, expected), cause);
        this.property = property;
        this.value = masked(property, value);
        this.expected = expected;
    }

    /** Returns the full property path, e.g. {@code observatory.outbounds[1].port}. */
    public String property() {
        return property;
    }

    /** Returns the rejected value, secrets masked, or {@code null} when it was missing. */
    public String value() {
        return value;
    }

    /** Returns what a valid value looks like, e.g. {@code 1-65535}. */
    public String expected() {
        return expected;
    }

    /** Returns the one-line form {@code property: value (expected: what)}, secrets masked. */
    static String describe(String property, String value, String expected) {
        return describeFound(property, printable(property, value), expected);
    }

    /**
     * Returns the one-line form for a value that is described rather than printed, e.g.
     * {@code observatory.outbounds[0].port: (a nested map) (expected: a whole number)}.
     *
     * @param found what was found, already printable and free of secrets
     */
    static String describeFound(String property, String found, String expected) {
        return property + ": " + found + " (expected: " + expected + ")";
    }

    /** Returns {@code value} as the one-line form prints it: secrets masked, blanks and control characters visible. */
    static String printable(String property, String value) {
        return InvalidValueException.printable(masked(property, value));
    }

    private static String masked(String property, String value) {
        if (value == null || value.isEmpty()) {
            return value;
        }
        return Redaction.isSecretName(property) ? Redaction.MASK : Redaction.redact(value);
    }
}
