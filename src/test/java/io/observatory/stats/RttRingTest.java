package io.observatory.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The acceptance facts of Xray's own {@code healthping_result_test.go}, on a fake ticker. */
class RttRingTest {

    private static final Duration LONG_VALIDITY = Duration.ofHours(1);

    private long now = 1_000;

    @Test
    void statsWhenRingOverflowsThenOnlyLastCapacitySamplesCount() {
        RttRing ring = new RttRing(4, LONG_VALIDITY);
        for (long rtt : new long[] {60, 140, 60, 140, 60, 60, 140, 60, 140}) {
            ring.putSuccess(rtt, now);
        }

        assertThat(ring.stats(now)).isEqualTo(new HealthPingStats(4, 0, 40, 100, 140, 60));
    }

    @Test
    void statsWhenFailuresReplaceSamplesThenFailCountsAndFiguresComeFromSuccesses() {
        RttRing ring = new RttRing(4, LONG_VALIDITY);
        for (long rtt : new long[] {60, 140, 60, 140, 60, 60, 140, 60, 140}) {
            ring.putSuccess(rtt, now);
        }

        ring.putFailure(now);
        ring.putFailure(now);
        assertThat(ring.stats(now)).isEqualTo(new HealthPingStats(4, 2, 40, 100, 140, 60));

        ring.putFailure(now);
        ring.putFailure(now);
        assertThat(ring.stats(now)).isEqualTo(new HealthPingStats(4, 4, 0, 0, 0, 0));
        assertThat(ring.stats(now).alive()).isFalse();
    }

    @Test
    void statsWhenSamplesExpireThenOnlyValidOnesCount() {
        RttRing ring = new RttRing(4, Duration.ofMillis(10));
        ring.putSuccess(60, now);
        ring.putSuccess(140, now);
        now += Duration.ofMillis(11).toNanos();
        ring.putSuccess(60, now);
        ring.putSuccess(140, now);

        assertThat(ring.stats(now)).isEqualTo(new HealthPingStats(2, 0, 40, 100, 140, 60));

        now += Duration.ofMillis(11).toNanos();
        assertThat(ring.stats(now)).isEqualTo(HealthPingStats.EMPTY);

        ring.putSuccess(60, now);
        assertThat(ring.stats(now)).isEqualTo(new HealthPingStats(1, 0, 30, 60, 60, 60));
    }

    @Test
    void statsWhenAgeEqualsValidityThenSampleStillCounts() {
        RttRing ring = new RttRing(2, Duration.ofNanos(100));
        ring.putSuccess(50, now);

        assertThat(ring.stats(now + 100).all()).isEqualTo(1);
        assertThat(ring.stats(now + 101).all()).isZero();
    }

    @Test
    void nextExpiryWhenSamplesValidThenEarliestExpiryJustAfterValidity() {
        RttRing ring = new RttRing(3, Duration.ofNanos(100));
        ring.putSuccess(50, now);
        ring.putFailure(now + 30);

        assertThat(ring.nextExpiryNanos(now + 40)).hasValue(now + 101);
        assertThat(ring.nextExpiryNanos(now + 101)).hasValue(now + 131);
        assertThat(ring.nextExpiryNanos(now + 131)).isEmpty();
    }

    @Test
    void statsWhenNothingRecordedThenNotAlive() {
        RttRing ring = new RttRing(3, LONG_VALIDITY);

        assertThat(ring.isEmpty()).isTrue();
        assertThat(ring.stats(now)).isEqualTo(HealthPingStats.EMPTY);
        assertThat(ring.stats(now).alive()).isFalse();
    }

    @Test
    void constructorWhenCapacityNotPositiveThenMessageNamesExpectation() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new RttRing(0, LONG_VALIDITY))
                .withMessage("capacity: 0 (expected: > 0)");
    }
}
