package io.observatory.page;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * The last round-trip times of one outbound, oldest first, in whole microseconds, {@value #FAILED} for a probe that
 * failed; at most {@link RttHistory#SAMPLES}. Immutable: {@link #plus} returns a copy, so readers on any thread see a
 * whole ring. Written as a JSON array of numbers. Costs a 16-byte header and 4 bytes per sample: 144 bytes full.
 */
final class RttSamples {

    /** The value of a failed probe. */
    static final int FAILED = -1;

    /** No sample yet. */
    static final RttSamples NONE = new RttSamples(new int[0]);

    private final int[] micros;

    private RttSamples(int[] micros) {
        this.micros = micros;
    }

    /**
     * These samples with {@code sample} appended, the oldest dropped beyond {@code capacity}.
     *
     * @param sample microseconds, or {@link #FAILED}
     */
    RttSamples plus(int sample, int capacity) {
        int kept = Math.min(micros.length, capacity - 1);
        int[] next = Arrays.copyOfRange(micros, micros.length - kept, micros.length + 1);
        next[kept] = sample;
        return new RttSamples(next);
    }

    /** The samples, oldest first, as a copy. */
    @JsonValue
    int[] micros() {
        return micros.clone();
    }

    @Override
    public String toString() {
        return Arrays.toString(micros);
    }
}
