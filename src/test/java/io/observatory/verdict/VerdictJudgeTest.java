package io.observatory.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ActiveHealth;
import io.observatory.health.HealthState;
import io.observatory.status.OutboundStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerdictJudgeTest {

    private static final Instant BEFORE = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:05Z");

    private static OutboundStatus status(HealthState active) {
        boolean alive = active == HealthState.HEALTHY;
        return new OutboundStatus("a", alive, alive ? 3 : OutboundStatus.DEAD_DELAY_MILLIS, "", null, null, null, null,
                new ActiveHealth(active, 0, 0), "evidence " + active.name().toLowerCase());
    }

    private static PassiveView passive(HealthState state) {
        return new PassiveView(state, 0, 0, 0, null);
    }

    private static OutboundHealth entry(HealthState active, HealthState passive) {
        OutboundStatus status = active == HealthState.UNKNOWN ? null : status(active);
        return VerdictJudge.judge("a", status, passive(passive), () -> "unused", null, BEFORE);
    }

    @ParameterizedTest(name = "active {0}, passive {1} -> {2}")
    @CsvSource({
        "UNKNOWN,   UNKNOWN,   UNKNOWN",
        "HEALTHY,   UNKNOWN,   HEALTHY",
        "UNKNOWN,   HEALTHY,   HEALTHY",
        "HEALTHY,   UNHEALTHY, UNHEALTHY",
        "UNHEALTHY, HEALTHY,   UNHEALTHY",
        "UNHEALTHY, UNKNOWN,   UNHEALTHY",
    })
    void judgeWhenNewOutboundThenCombinedVerdictAndAddedReason(HealthState active, HealthState passive,
            HealthState verdict) {
        OutboundHealth judged = entry(active, passive);

        assertThat(judged.verdict()).isEqualTo(verdict);
        assertThat(judged.lastChange()).isEqualTo(BEFORE);
        assertThat(judged.lastChangeReason()).isEqualTo("outbound added");
    }

    @ParameterizedTest(name = "{0}/{1} -> {2}/{3}: {4}")
    @CsvSource(delimiter = '|', value = {
        "HEALTHY | UNKNOWN | UNHEALTHY | UNKNOWN   | active healthy -> unhealthy: evidence unhealthy",
        "HEALTHY | UNKNOWN | HEALTHY   | UNHEALTHY | passive unknown -> unhealthy: why passive",
        "HEALTHY | HEALTHY | UNHEALTHY | UNHEALTHY | active healthy -> unhealthy: evidence unhealthy; passive healthy -> unhealthy: why passive",
        "UNHEALTHY | UNHEALTHY | UNHEALTHY | UNKNOWN | passive unhealthy -> unknown: why passive",
        "HEALTHY | UNKNOWN | UNKNOWN   | UNKNOWN   | active healthy -> unknown: no longer observed",
    })
    void judgeWhenAStateChangesThenNewChangeTimeAndReasonNamingWhatChanged(HealthState activeBefore,
            HealthState passiveBefore, HealthState active, HealthState passive, String reason) {
        OutboundHealth before = entry(activeBefore, passiveBefore);
        OutboundStatus status = active == HealthState.UNKNOWN ? null : status(active);

        OutboundHealth judged = VerdictJudge.judge("a", status, passive(passive), () -> "why passive", before, NOW);

        assertThat(judged.lastChange()).isEqualTo(NOW);
        assertThat(judged.lastChangeReason()).isEqualTo(reason);
    }

    @Test
    void judgeWhenOnlyEvidenceChangesThenChangeTimeAndReasonKeptAndPassiveReasonNotAsked() {
        OutboundHealth before = entry(HealthState.HEALTHY, HealthState.UNKNOWN);
        OutboundStatus faster = new OutboundStatus("a", true, 1, "", null, null, null, null,
                new ActiveHealth(HealthState.HEALTHY, 2, 0), "probe succeeded: HTTP 204 in 1 ms");

        OutboundHealth judged = VerdictJudge.judge("a", faster, passive(HealthState.UNKNOWN), () -> {
            throw new AssertionError("passive reason asked without a passive change");
        }, before, NOW);

        assertThat(judged.probe()).isSameAs(faster);
        assertThat(judged.lastChange()).isEqualTo(BEFORE);
        assertThat(judged.lastChangeReason()).isEqualTo("outbound added");
    }
}
