package io.observatory.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports an {@link InvalidConfigException} anywhere in a startup failure's cause chain as its one line, e.g.
 * {@code observatory.outbounds[1].port: 70000 (expected: 1-65535)}, with an action naming the property to change.
 * Registered in {@code META-INF/spring.factories}.
 */
public class InvalidConfigFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigException> implements Ordered {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigException cause) {
        return new FailureAnalysis(cause.getMessage(), action(cause.property(), cause.expected(), null), cause);
    }

    /** Ahead of Spring Boot's generic analyzers, which would report the surrounding bean creation failure. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /**
     * Returns the action line shared by the {@code observatory.*} analyzers.
     *
     * @param origin where the value was set (file and line, environment variable…), or {@code null} when unknown
     */
    static String action(String property, String expected, Object origin) {
        String where = origin == null ? "" : " (set in " + origin + ")";
        return "Update " + property + " in the application configuration" + where + ". Expected: " + expected + ".";
    }
}
