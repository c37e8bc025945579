package io.observatory.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StatusMappingTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private static ProbeResult success(long rttNanos) {
        return new ProbeResult("p", true, rttNanos, ProbePhases.NONE, 204, T0, T0, null);
    }

    private static ProbeResult failure(String reason) {
        return new ProbeResult("p", false, 5, ProbePhases.NONE, 0, T0, T0,
                new ProbeError(ProbeError.Kind.CONNECT_TIMEOUT, ProbeError.Hop.PROXY, reason, null));
    }

    @Test
    void afterProbeWhenFirstProbeFailsThenNeverSeen() {
        OutboundStatus status = StatusMapping.afterProbe(null, failure("no connection"), T0);

        assertThat(status.alive()).isFalse();
        assertThat(status.delayMillis()).isEqualTo(99_999_999L);
        assertThat(status.lastErrorReason()).isEqualTo("no connection");
        assertThat(status.lastSeen()).isNull();
        assertThat(status.lastTry()).isEqualTo(T0);
    }

    @Test
    void afterProbeWhenSuccessThenDelayTruncatedToMillisAndReasonCleared() {
        OutboundStatus dead = StatusMapping.afterProbe(null, failure("x"), T0);

        OutboundStatus alive = StatusMapping.afterProbe(dead, success(1_999_999), T0.plusSeconds(10));

        assertThat(alive.alive()).isTrue();
        assertThat(alive.delayMillis()).isEqualTo(1);
        assertThat(alive.lastErrorReason()).isEmpty();
        assertThat(alive.lastSeen()).isEqualTo(T0.plusSeconds(10));
        assertThat(alive.lastTry()).isEqualTo(T0.plusSeconds(10));
    }

    @Test
    void afterProbeWhenFailureAfterSuccessThenLastSeenKept() {
        OutboundStatus alive = StatusMapping.afterProbe(null, success(3_000_000), T0);

        OutboundStatus dead = StatusMapping.afterProbe(alive, failure("reset"), T0.plusSeconds(20));

        assertThat(dead.lastSeen()).isEqualTo(T0);
        assertThat(dead.lastTry()).isEqualTo(T0.plusSeconds(20));
        assertThat(dead.delayMillis()).isEqualTo(OutboundStatus.DEAD_DELAY_MILLIS);
    }

    @Test
    void fromBurstWhenAllSamplesFailedThenNotAliveWithZeroDelay() {
        OutboundStatus status = StatusMapping.fromBurst("b", new HealthPingStats(4, 4, 0, 0, 0, 0));

        assertThat(status.alive()).isFalse();
        assertThat(status.delayMillis()).isZero();
        assertThat(status.lastSeen()).isNull();
        assertThat(status.lastTry()).isNull();
    }

    @Test
    void fromBurstWhenOneSuccessThenAliveWithAverageInMillis() {
        OutboundStatus status = StatusMapping.fromBurst("b", new HealthPingStats(3, 2, 30_500_000, 61_999_999,
                61_999_999, 61_999_999));

        assertThat(status.alive()).isTrue();
        assertThat(status.delayMillis()).isEqualTo(61);
        assertThat(status.healthPing().fail()).isEqualTo(2);
    }
}
