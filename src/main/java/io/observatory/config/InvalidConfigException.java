package io.observatory.config;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.origin.Origin;

/**
 * A configuration that cannot be used, as one line naming the property, the value found there and what is expected,
 * e.g. {@code observatory.outbounds[1].port: 70000 (expected: 1-65535)}, with where the value was set. What
 * {@link ObservatoryConfigBinder} throws for the first problem of a configuration; start-up reports it
 * ({@link ConfigFailureAnalyzer}) and a reload logs it. Secrets are masked in the found value.
 */
public final class InvalidConfigException extends RuntimeException {

    private final transient ReportLine line;
    private final transient @Nullable Origin origin;

    InvalidConfigException(ReportLine line, @Nullable Origin origin, @Nullable Throwable cause) {
        super(line.describe(), cause);
        this.line = line;
        this.origin = origin;
    }

    /** The full name of the property to change, e.g. {@code observatory.outbounds[1].port}. */
    public String property() {
        return line.property();
    }

    /** What was found there, printable and free of secrets, e.g. {@code 70000} or {@code (a nested map)}. */
    public String found() {
        return line.found();
    }

    /** What belongs there, e.g. {@code 1-65535}. */
    public String expected() {
        return line.expected();
    }

    /** Where the value was set, e.g. a file and line, or {@code null} for a default or when unknown. */
    public @Nullable Origin origin() {
        return origin;
    }

    ReportLine line() {
        return line;
    }
}
