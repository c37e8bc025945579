package io.observatory.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.testing.ExternalCommand;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus alerting rules the chart ships, checked by Prometheus's own {@code promtool} (Debian's
 * {@code prometheus}): valid rules, and the unit tests beside them (an outbound unhealthy for a minute fires and
 * clears, a blocked server, a route in panic).
 */
class AlertRulesTest {

    private static final String RULES = "helm/observatory/rules/observatory-alerts.yaml";
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void rulesWhenCheckedByPromtoolThenValid() {
        assertThat(ExternalCommand.run(LIMIT, List.of("promtool", "check", "rules", RULES)))
                .contains("SUCCESS: 9 rules found");
    }

    @Test
    void rulesWhenTheirUnitTestsRunThenTheyPass() {
        assertThat(ExternalCommand.run(
                        LIMIT,
                        List.of("promtool", "test", "rules", "helm/observatory/rules/observatory-alerts.test.yaml")))
                .contains("SUCCESS");
    }
}
