package io.observatory.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.BurstWindowRule;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.HealthState;
import io.observatory.probe.ProbeError;
import io.observatory.probe.ProbePhases;
import io.observatory.probe.ProbeResult;
import io.observatory.stats.HealthPingStats;
import java.time.Instant;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class OutboundStatusTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final BurstWindowRule XRAY_WINDOW = new BurstWindowRule(
            new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1)), OptionalDouble.empty());
    private static final ActiveCheck XRAY = new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 1));

    private static ProbeResult success(long rttNanos) {
        return response(204, rttNanos);
    }

    private static ProbeResult response(int status, long rttNanos) {
        return new ProbeResult("p", true, rttNanos, ProbePhases.NONE, status, T0, T0, null);
    }

    private static ProbeResult failure(String reason) {
        return new ProbeResult(
                "p",
                false,
                5,
                ProbePhases.NONE,
                0,
                T0,
                T0,
                new ProbeError(ProbeError.Kind.CONNECT_TIMEOUT, ProbeError.Hop.PROXY, reason, null));
    }

    @Test
    void afterProbeWhenFirstProbeFailsThenNeverSeen() {
        OutboundStatus status = OutboundStatus.afterProbe(null, failure("no connection"), T0, XRAY);

        assertThat(status.alive()).isFalse();
        assertThat(status.delayMillis()).isEqualTo(99_999_999L);
        assertThat(status.lastErrorReason()).isEqualTo("no connection");
        assertThat(status.lastSeen()).isNull();
        assertThat(status.lastTry()).isEqualTo(T0);
        assertThat(status.active().state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(status.activeDetail()).isEqualTo("probe failed: no connection");
    }

    @Test
    void afterProbeWhenSuccessThenDelayTruncatedToMillisAndReasonCleared() {
        OutboundStatus dead = OutboundStatus.afterProbe(null, failure("x"), T0, XRAY);

        OutboundStatus alive = OutboundStatus.afterProbe(dead, success(1_999_999), T0.plusSeconds(10), XRAY);

        assertThat(alive.alive()).isTrue();
        assertThat(alive.delayMillis()).isEqualTo(1);
        assertThat(alive.lastErrorReason()).isEmpty();
        assertThat(alive.lastSeen()).isEqualTo(T0.plusSeconds(10));
        assertThat(alive.lastTry()).isEqualTo(T0.plusSeconds(10));
        assertThat(alive.activeDetail()).isEqualTo("probe succeeded: HTTP 204 in 1 ms");
    }

    @Test
    void afterProbeWhenFailureAfterSuccessThenLastSeenKept() {
        OutboundStatus alive = OutboundStatus.afterProbe(null, success(3_000_000), T0, XRAY);

        OutboundStatus dead = OutboundStatus.afterProbe(alive, failure("reset"), T0.plusSeconds(20), XRAY);

        assertThat(dead.lastSeen()).isEqualTo(T0);
        assertThat(dead.lastTry()).isEqualTo(T0.plusSeconds(20));
        assertThat(dead.delayMillis()).isEqualTo(OutboundStatus.DEAD_DELAY_MILLIS);
    }

    @Test
    void afterProbeWhenAnyStatusExpectedThenServerErrorIsAliveAsInXray() {
        OutboundStatus status = OutboundStatus.afterProbe(null, response(500, 2_000_000), T0, XRAY);

        assertThat(status.alive()).isTrue();
        assertThat(status.delayMillis()).isEqualTo(2);
    }

    @Test
    void afterProbeWhenStatusNotExpectedThenFailureNamingStatusAndLastSeenKept() {
        ActiveCheck only204 = new ActiveCheck(ExpectedStatus.parse("204"), new ActiveHealthPolicy(1, 1));
        OutboundStatus alive = OutboundStatus.afterProbe(null, success(3_000_000), T0, only204);

        OutboundStatus blocked = OutboundStatus.afterProbe(alive, response(403, 2_000_000), T0.plusSeconds(5), only204);

        assertThat(blocked.alive()).isFalse();
        assertThat(blocked.delayMillis()).isEqualTo(OutboundStatus.DEAD_DELAY_MILLIS);
        assertThat(blocked.lastErrorReason()).isEqualTo("outbound p: unexpected HTTP status 403 (expected: 204)");
        assertThat(blocked.lastProbe().error().kind()).isEqualTo(ProbeError.Kind.UNEXPECTED_STATUS);
        assertThat(blocked.lastProbe().httpStatus()).isEqualTo(403);
        assertThat(blocked.lastSeen()).isEqualTo(T0);
    }

    @Test
    void afterProbeWhenFailureBelowUnhealthyThresholdThenStillAliveWithLastDelay() {
        ActiveCheck check = new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(1, 2));
        OutboundStatus alive = OutboundStatus.afterProbe(null, success(7_000_000), T0, check);

        OutboundStatus once = OutboundStatus.afterProbe(alive, failure("reset"), T0.plusSeconds(1), check);
        OutboundStatus twice = OutboundStatus.afterProbe(once, failure("reset"), T0.plusSeconds(2), check);

        assertThat(once.alive()).isTrue();
        assertThat(once.delayMillis()).isEqualTo(7);
        assertThat(once.lastErrorReason()).isEqualTo("reset");
        assertThat(twice.alive()).isFalse();
        assertThat(twice.delayMillis()).isEqualTo(OutboundStatus.DEAD_DELAY_MILLIS);
    }

    @Test
    void afterProbeWhenSuccessBelowHealthyThresholdThenUnknownAndNotAlive() {
        ActiveCheck check = new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(2, 1));

        OutboundStatus first = OutboundStatus.afterProbe(null, success(7_000_000), T0, check);
        OutboundStatus second = OutboundStatus.afterProbe(first, success(7_000_000), T0.plusSeconds(1), check);

        assertThat(first.active().state()).isEqualTo(HealthState.UNKNOWN);
        assertThat(first.alive()).isFalse();
        assertThat(second.alive()).isTrue();
    }

    @Test
    void fromBurstWhenAllSamplesFailedThenNotAliveWithZeroDelay() {
        HealthPingStats stats = new HealthPingStats(4, 4, 0, 0, 0, 0);
        OutboundStatus status = OutboundStatus.fromBurst(
                "b", stats, XRAY_WINDOW.judge(ActiveHealth.INITIAL, stats, null).active(), XRAY_WINDOW.describe(stats));

        assertThat(status.alive()).isFalse();
        assertThat(status.delayMillis()).isZero();
        assertThat(status.lastSeen()).isNull();
        assertThat(status.lastTry()).isNull();
        assertThat(status.activeDetail()).isEqualTo("4/4 samples failed");
    }

    @Test
    void fromBurstWhenOneSuccessThenAliveWithAverageInMillis() {
        HealthPingStats stats = new HealthPingStats(3, 2, 30_500_000, 61_999_999, 61_999_999, 61_999_999);
        OutboundStatus status = OutboundStatus.fromBurst(
                "b", stats, XRAY_WINDOW.judge(ActiveHealth.INITIAL, stats, null).active(), XRAY_WINDOW.describe(stats));

        assertThat(status.alive()).isTrue();
        assertThat(status.delayMillis()).isEqualTo(61);
        assertThat(status.healthPing().fail()).isEqualTo(2);
        assertThat(status.activeDetail()).isEqualTo("2/3 samples failed, average 61 ms");
    }
}
