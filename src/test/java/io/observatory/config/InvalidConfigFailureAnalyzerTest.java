package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

class InvalidConfigFailureAnalyzerTest {

    private final InvalidConfigFailureAnalyzer analyzer = new InvalidConfigFailureAnalyzer();

    @Test
    void analyzeWhenInvalidConfigDeepInCauseChainThenItsLineAndAction() {
        InvalidConfigException invalid = new InvalidConfigException("observatory.outbounds[1].port", "70000",
                "1-65535");
        BeanCreationException failure = new BeanCreationException("observatoryConfig",
                "Failed to instantiate", new IllegalStateException("wrapped", invalid));

        FailureAnalysis analysis = analyzer.analyze(failure);

        assertThat(analysis.getDescription()).isEqualTo("observatory.outbounds[1].port: 70000 (expected: 1-65535)");
        assertThat(analysis.getAction())
                .isEqualTo("Update observatory.outbounds[1].port in the application configuration. Expected: 1-65535.");
        assertThat(analysis.getCause()).isSameAs(invalid);
    }

    @Test
    void analyzeWhenOtherFailureThenLeftToOtherAnalyzers() {
        assertThat(analyzer.analyze(new IllegalStateException("unrelated"))).isNull();
    }
}
