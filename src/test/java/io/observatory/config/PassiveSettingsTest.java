package io.observatory.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ConsecutiveFailuresPolicy;
import io.observatory.health.TransportFailureRatePolicy;
import io.observatory.testing.Configs;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PassiveSettingsTest {

    private static final String RATE = "passive.transport-failure-rate.";
    private static final String CONSECUTIVE = "passive.consecutive-failures.";

    /** The bound configuration of {@code properties} with an observer, so that the only warnings are passive ones. */
    private static ObservatoryConfigBinder.Bound bound(String... properties) {
        String[] withObserver = new String[properties.length + 1];
        withObserver[0] = "standard.probe-interval=10s";
        System.arraycopy(properties, 0, withObserver, 1, properties.length);
        return Configs.bound(withObserver);
    }

    @Test
    void bindWhenNotSetThenYarpTransportFailureRateWithItsDefaults() {
        ObservatoryConfigBinder.Bound bound = bound();

        assertThat(bound.config().passive().policy())
                .isEqualTo(new TransportFailureRatePolicy(Duration.ofSeconds(60), 10, 0.3, Duration.ofSeconds(60)));
        assertThat(bound.warnings()).isEmpty();
    }

    @Test
    void bindWhenConsecutiveFailuresEmptySectionThenSilkyThresholdAndYarpReactivation() {
        assertThat(Configs.yaml("observatory:\n  passive:\n    consecutive-failures: {}\n")
                        .passive()
                        .policy())
                .isEqualTo(new ConsecutiveFailuresPolicy(3, Duration.ofSeconds(60)));
    }

    @Test
    void bindWhenConsecutiveFailuresSetThenThresholdAndReactivation() {
        ObservatoryConfigBinder.Bound bound =
                bound(CONSECUTIVE + "threshold=0", CONSECUTIVE + "reactivation-period=2m30s");

        assertThat(bound.config().passive().policy())
                .isEqualTo(new ConsecutiveFailuresPolicy(0, Duration.ofSeconds(150)));
        assertThat(bound.warnings()).isEmpty();
    }

    @Test
    void bindWhenTransportFailureRateSetThenEveryParameter() {
        ObservatoryConfigBinder.Bound bound = bound(
                RATE + "detection-window=2m",
                RATE + "minimal-total-count=1",
                RATE + "failure-rate-limit=1",
                RATE + "reactivation-period=5m");

        assertThat(bound.config().passive().policy())
                .isEqualTo(new TransportFailureRatePolicy(Duration.ofMinutes(2), 1, 1.0, Duration.ofMinutes(5)));
        assertThat(bound.warnings()).isEmpty();
    }

    @Test
    void bindWhenReactivationShorterThanWindowThenKeptRaisedToWindowAndOneWarning() {
        ObservatoryConfigBinder.Bound bound = bound(RATE + "detection-window=90s", RATE + "reactivation-period=10s");
        TransportFailureRatePolicy policy =
                (TransportFailureRatePolicy) bound.config().passive().policy();

        assertThat(policy.reactivationPeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(policy.effectiveReactivationPeriod()).isEqualTo(Duration.ofSeconds(90));
        assertThat(bound.warnings())
                .containsExactly("observatory.passive.transport-failure-rate.reactivation-period: "
                        + "10s is shorter than the detection window, 1m30s is applied");
    }

    @Test
    void bindWhenOnlyWindowLongerThanDefaultReactivationThenRaisedWithoutWarning() {
        ObservatoryConfigBinder.Bound bound = bound(RATE + "detection-window=5m");

        assertThat(bound.config().passive().policy().effectiveReactivationPeriod())
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(bound.warnings()).isEmpty();
    }

    @Test
    void bindWhenBothPoliciesSetThenOneLineNamesBoth() {
        assertThat(Configs.rejection(RATE + "minimal-total-count=20", CONSECUTIVE + "threshold=5"))
                .isEqualTo("observatory.passive.consecutive-failures: set together with "
                        + "observatory.passive.transport-failure-rate (expected: at most one passive policy: remove "
                        + "observatory.passive.transport-failure-rate or observatory.passive.consecutive-failures)");
    }

    @Test
    void bindWhenUnknownPolicyThenOneLineListsThePolicies() {
        assertThat(Configs.rejection("passive.outlier-detection.threshold=3"))
                .isEqualTo("observatory.passive.outlier-detection: (a nested map) (expected: a known property of "
                        + "observatory.passive: transport-failure-rate, consecutive-failures)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "consecutive-failures.threshold=-1               | consecutive-failures.threshold: -1 (expected: >= 0)",
                "consecutive-failures.reactivation-period=0      | consecutive-failures.reactivation-period: 0s "
                        + "(expected: > 0)",
                "transport-failure-rate.detection-window=0s      | transport-failure-rate.detection-window: 0s "
                        + "(expected: a whole number of seconds, >= 1s)",
                "transport-failure-rate.detection-window=999ms   | transport-failure-rate.detection-window: 999ms "
                        + "(expected: a whole number of seconds, >= 1s)",
                "transport-failure-rate.detection-window=1.5s    | transport-failure-rate.detection-window: 1.5s "
                        + "(expected: a whole number of seconds, >= 1s)",
                "transport-failure-rate.detection-window=-1m     | transport-failure-rate.detection-window: -1m0s "
                        + "(expected: a whole number of seconds, >= 1s)",
                "transport-failure-rate.minimal-total-count=0    | transport-failure-rate.minimal-total-count: 0 "
                        + "(expected: >= 1)",
                "transport-failure-rate.failure-rate-limit=0     | transport-failure-rate.failure-rate-limit: 0 "
                        + "(expected: > 0 and <= 1)",
                "transport-failure-rate.failure-rate-limit=1.5   | transport-failure-rate.failure-rate-limit: 1.5 "
                        + "(expected: > 0 and <= 1)",
                "transport-failure-rate.failure-rate-limit=NaN   | transport-failure-rate.failure-rate-limit: NaN "
                        + "(expected: > 0 and <= 1)",
                "transport-failure-rate.reactivation-period=-5s  | transport-failure-rate.reactivation-period: -5s "
                        + "(expected: > 0)"
            })
    void bindWhenPassiveValueBadThenOneLineNamesFullProperty(String assignment, String line) {
        assertThat(Configs.rejection("passive." + assignment)).isEqualTo("observatory.passive." + line);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1s, 1", "60s, 60", "1h, 3600"})
    void bindWhenDetectionWindowWholeSecondsThenKept(String window, long seconds) {
        assertThat(((TransportFailureRatePolicy) Configs.of(RATE + "detection-window=" + window)
                                .passive()
                                .policy())
                        .detectionWindow())
                .isEqualTo(Duration.ofSeconds(seconds));
    }
}
