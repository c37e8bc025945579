package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.AvailabilityPolicy;
import io.observatory.testing.Configs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AvailabilitySettingsTest {

    @Test
    void bindWhenNotSetThenHealthyOrPanicOnlyWhenNothingIsUsable() {
        assertThat(Configs.of().availability().policy()).isEqualTo(new AvailabilityPolicy.HealthyOrPanic(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0", "50", "100"})
    void bindWhenPanicThresholdInRangeThenKept(int percent) {
        assertThat(Configs.of("availability.healthy-or-panic.panic-threshold=" + percent)
                        .availability()
                        .policy())
                .isEqualTo(new AvailabilityPolicy.HealthyOrPanic(percent));
    }

    @Test
    void bindWhenHealthyAndUnknownEmptySectionThenThatPolicy() {
        assertThat(Configs.yaml("observatory:\n  availability:\n    healthy-and-unknown: {}\n")
                        .availability()
                        .policy())
                .isEqualTo(AvailabilityPolicy.HEALTHY_AND_UNKNOWN);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "availability.healthy-only=                     | observatory.availability.healthy-only: (empty) "
                        + "(expected: a known property of observatory.availability: healthy-or-panic, "
                        + "healthy-and-unknown)",
                "availability.healthy-or-panic.panic-threshold=101 | observatory.availability.healthy-or-panic"
                        + ".panic-threshold: 101 (expected: 0-100)",
                "availability.healthy-or-panic.panic-threshold=-1  | observatory.availability.healthy-or-panic"
                        + ".panic-threshold: -1 (expected: 0-100)"
            })
    void bindWhenAvailabilityValueBadThenOneLineNamesFullProperty(String assignment, String line) {
        assertThat(Configs.rejection(assignment)).isEqualTo(line);
    }

    @Test
    void bindWhenBothPoliciesSetThenOneLineNamesBoth() {
        assertThat(Configs.yamlRejection("""
                observatory:
                  availability:
                    healthy-or-panic: { panic-threshold: 50 }
                    healthy-and-unknown: {}
                """))
                .isEqualTo("observatory.availability.healthy-and-unknown: set together with "
                        + "observatory.availability.healthy-or-panic (expected: at most one availability policy: remove "
                        + "observatory.availability.healthy-or-panic or observatory.availability.healthy-and-unknown)");
    }
}
