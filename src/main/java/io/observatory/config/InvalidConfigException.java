package io.observatory.config;

import java.util.Locale;

/**
 * An {@code observatory.*} setting that cannot be used, reported in one line in Armeria's style:
 * {@code property: value (expected: what)}, e.g. {@code observatory.outbounds[1].port: 70000 (expected: 1-65535)}.
 * {@link InvalidConfigFailureAnalyzer} turns it into Spring Boot's startup failure report.
 *
 * <p>The value of a property whose last name element is {@code password} is always printed masked.
 */
public class InvalidConfigException extends IllegalArgumentException {

    /** What a masked value prints as. */
    public static final String MASK = "******";

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
     * @param cause the underlying failure, or {@code null}
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

    /** Returns the rejected value ({@link #MASK} for a password), or {@code null} when it was missing. */
    public String value() {
        return value;
    }

    /** Returns what a valid value looks like, e.g. {@code 1-65535}. */
    public String expected() {
        return expected;
    }

    /** Returns the one-line form {@code property: value (expected: what)}, a password value masked. */
    static String describe(String property, String value, String expected) {
        return property + ": " + InvalidValueException.describe(masked(property, value), expected);
    }

    private static String masked(String property, String value) {
        return value != null && property.toLowerCase(Locale.ROOT).endsWith("password") ? MASK : value;
    }
}
