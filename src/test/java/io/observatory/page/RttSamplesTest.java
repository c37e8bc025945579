package io.observatory.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RttSamplesTest {

    @Test
    void plusWhenBelowCapacityThenAppendedOldestFirst() {
        RttSamples samples = RttSamples.NONE.plus(10, 3).plus(RttSamples.FAILED, 3);

        assertThat(samples.micros()).containsExactly(10, -1);
    }

    @Test
    void plusWhenFullThenTheOldestIsDroppedAndTheOriginalStaysAsItWas() {
        RttSamples full = RttSamples.NONE.plus(1, 3).plus(2, 3).plus(3, 3);

        RttSamples next = full.plus(4, 3);

        assertThat(next.micros()).containsExactly(2, 3, 4);
        assertThat(full.micros()).containsExactly(1, 2, 3);
    }

    @Test
    void microsWhenChangedByTheCallerThenTheSamplesStayAsTheyWere() {
        RttSamples samples = RttSamples.NONE.plus(7, 3);

        samples.micros()[0] = 99;

        assertThat(samples.micros()).containsExactly(7);
    }
}
