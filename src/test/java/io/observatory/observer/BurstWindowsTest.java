package io.observatory.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealth;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.BurstWindowRule;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.HealthState;
import io.observatory.snapshot.OutboundStatus;
import io.observatory.stats.HealthPingStats;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Burst windows are judged once per change: a sample recorded or expired, never a mere republication. */
class BurstWindowsTest {

    private static final HealthPingStats PASSING = new HealthPingStats(2, 0, 0, 40_000_000, 40_000_000, 40_000_000);
    private static final HealthPingStats FAILING = new HealthPingStats(2, 2, 0, 0, 0, 0);

    /** Two consecutive passing judgements make an outbound healthy, two failing ones unhealthy. */
    private final BurstWindows windows = new BurstWindows(new BurstWindowRule(
            new ActiveCheck(ExpectedStatus.ANY, new ActiveHealthPolicy(2, 2)), OptionalDouble.empty()));

    @Test
    void statusWhenWindowUnchangedThenRepublishingIsNoEvidence() {
        windows.sampleRecorded("proxy_a");
        OutboundStatus first = windows.status("proxy_a", PASSING, null, null);

        OutboundStatus again = windows.status("proxy_a", PASSING, null, null);

        assertThat(first.active()).isEqualTo(new ActiveHealth(HealthState.UNKNOWN, 1, 0));
        assertThat(again).isEqualTo(first);
    }

    @Test
    void statusWhenSampleRecordedWithTheSameFiguresThenJudgedAgain() {
        windows.sampleRecorded("proxy_a");
        windows.status("proxy_a", PASSING, null, null);

        windows.sampleRecorded("proxy_a");
        OutboundStatus status = windows.status("proxy_a", PASSING, null, null);

        assertThat(status.active().state()).isEqualTo(HealthState.HEALTHY);
        assertThat(status.alive()).isTrue();
        assertThat(status.delayMillis()).isEqualTo(40);
        assertThat(status.activeDetail()).isEqualTo("0/2 samples failed, average 40 ms");
    }

    @Test
    void statusWhenSampleExpiresThenTheChangedWindowIsJudged() {
        windows.sampleRecorded("proxy_a");
        windows.status("proxy_a", FAILING, null, "connection refused");

        OutboundStatus expired =
                windows.status("proxy_a", new HealthPingStats(1, 1, 0, 0, 0, 0), null, "connection refused");

        assertThat(expired.active()).isEqualTo(new ActiveHealth(HealthState.UNHEALTHY, 0, 2));
        assertThat(expired.activeDetail()).isEqualTo("1/1 samples failed; last failure: connection refused");
    }

    @Test
    void statusWhenCarriedOverThenTheFirstJudgementStartsFromThePredecessorsHealth() {
        ActiveHealth healthy = new ActiveHealth(HealthState.HEALTHY, 5, 0);
        windows.sampleRecorded("proxy_a");

        OutboundStatus status = windows.status("proxy_a", FAILING, healthy, "timeout");

        assertThat(status.active())
                .as("one failing window is below the unhealthy threshold of 2")
                .isEqualTo(new ActiveHealth(HealthState.HEALTHY, 0, 1));
    }

    @Test
    void retainWhenOutboundDeselectedThenItsHistoryIsForgotten() {
        windows.sampleRecorded("proxy_a");
        windows.status("proxy_a", PASSING, null, null);
        windows.sampleRecorded("proxy_b");
        windows.status("proxy_b", PASSING, null, null);

        windows.retain(Set.of("proxy_b"));
        windows.sampleRecorded("proxy_a");
        windows.sampleRecorded("proxy_b");

        assertThat(windows.status("proxy_a", PASSING, null, null).active())
                .isEqualTo(new ActiveHealth(HealthState.UNKNOWN, 1, 0));
        assertThat(windows.status("proxy_b", PASSING, null, null).active().state())
                .isEqualTo(HealthState.HEALTHY);
    }
}
