package io.observatory.config;

import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;

/**
 * Reports a configuration that stops start-up as one line, with an action naming where the value was set: the
 * {@link InvalidConfigException} of {@code observatory.*}, or a server setting ({@code spring.grpc.server.*},
 * {@code server.*}, {@code management.server.*}) that Spring Boot could not bind or validate. Registered in
 * {@code META-INF/spring.factories} ahead of Spring Boot's multi-line reports, which keep other properties'
 * failures.
 */
public final class ConfigFailureAnalyzer implements FailureAnalyzer, Ordered {

    /** The server settings reported here: the ports and addresses of the service's servers. */
    private static final List<ConfigurationPropertyName> SERVERS = Stream.of(
                    "spring.grpc.server", "server", "management.server")
            .map(ConfigurationPropertyName::of)
            .toList();

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidConfigException invalid) {
                return analysis(invalid.line(), invalid.origin(), failure);
            }
            if (cause instanceof BindException bind
                    && SERVERS.stream()
                            .anyMatch(prefix -> prefix.equals(bind.getName()) || prefix.isAncestorOf(bind.getName()))) {
                InvalidConfigException report = ConfigReports.of(bind, null);
                return report == null ? null : analysis(report.line(), report.origin(), failure);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    /** Ahead of Spring Boot's analyzers, which would report the same failure on several lines. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /**
     * The report of a value that cannot be used, in the form of every other bad value: the description
     * {@code property: found (expected: what)}, the action naming where it was set.
     *
     * @param origin where the value was set, or {@code null} for a default
     */
    public static FailureAnalysis analysis(
            String property, String found, String expected, @Nullable Origin origin, Throwable cause) {
        return analysis(new ReportLine(property, found, expected), origin, cause);
    }

    private static FailureAnalysis analysis(ReportLine line, @Nullable Origin origin, Throwable cause) {
        String where = origin == null ? "" : " (set in " + origin + ")";
        return new FailureAnalysis(
                line.describe(),
                "Update " + line.property() + " in the application configuration" + where + ". Expected: "
                        + line.expected() + ".",
                cause);
    }
}
