package io.observatory.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundHealth;
import io.observatory.snapshot.PassiveView;
import io.observatory.testing.SyntheticStatuses;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AgentAnswersTest {

    private static final Instant NOW = Instant.parse("2026-12-04T03:00:00Z");

    private static final Observation OBSERVATION = observation(
            outbound("healthy", HealthState.HEALTHY, "active unknown -> healthy: probe succeeded"),
            outbound("new", HealthState.UNKNOWN, "configured"),
            outbound("slow", HealthState.DEGRADED, "passive healthy -> degraded"),
            outbound("dead", HealthState.UNHEALTHY, "active healthy -> unhealthy: probe failed"));

    @Test
    void answerWhenVerdictsThenUpDrainOrDownWithTheReason() {
        assertThat(AgentAnswers.answer("healthy", OBSERVATION)).isEqualTo("up ready\n");
        assertThat(AgentAnswers.answer("new", OBSERVATION)).isEqualTo("up ready\n");
        assertThat(AgentAnswers.answer("slow", OBSERVATION)).isEqualTo("up drain\n");
        assertThat(AgentAnswers.answer("dead", OBSERVATION)).isEqualTo("down #outbound dead: connection refused\n");
    }

    @Test
    void answerWhenTheRequestIsWrongThenDownSayingWhy() {
        assertThat(AgentAnswers.answer("ghost", OBSERVATION)).isEqualTo("down #no outbound \"ghost\"\n");
        assertThat(AgentAnswers.answer("  ", OBSERVATION)).isEqualTo(AgentAnswers.NO_TAG);
        assertThat(AgentAnswers.answer("a\tb", OBSERVATION)).isEqualTo(AgentAnswers.BAD_TAG);
        assertThat(AgentAnswers.answer("x".repeat(256), OBSERVATION)).isEqualTo(AgentAnswers.BAD_TAG);
        assertThat(AgentAnswers.answer("прокси", OBSERVATION))
                .as("a tag HAProxy cannot show is answered in printable ASCII")
                .isEqualTo("down #no outbound \"??????\"\n");
        assertThat(AgentAnswers.BAD_TAG).endsWith("\n").doesNotContain("\n\n");
    }

    @Test
    void wordWhenAnswersThenTheirFirstWordForMetrics() {
        assertThat(AgentAnswers.word("up ready\n")).isEqualTo("up");
        assertThat(AgentAnswers.word("up drain\n")).isEqualTo("drain");
        assertThat(AgentAnswers.word("down #x\n")).isEqualTo("down");
    }

    private static OutboundHealth outbound(String tag, HealthState verdict, String reason) {
        return new OutboundHealth(
                tag,
                SyntheticStatuses.status(tag, verdict != HealthState.UNHEALTHY),
                PassiveView.NONE,
                List.of(),
                verdict,
                NOW,
                reason);
    }

    private static Observation observation(OutboundHealth... outbounds) {
        Map<String, OutboundHealth> byTag = new LinkedHashMap<>();
        for (OutboundHealth outbound : outbounds) {
            byTag.put(outbound.tag(), outbound);
        }
        return new Observation(byTag, new AvailabilityPolicy.HealthyOrPanic(0), OptionalLong.empty());
    }
}
