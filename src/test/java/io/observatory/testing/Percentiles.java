package io.observatory.testing;

import java.util.Arrays;

/** The figures the benchmarks print: nearest-rank percentiles of nanosecond samples, shown in milliseconds. */
public final class Percentiles {

    private Percentiles() {}

    /** The nearest-rank {@code percent}-th percentile of {@code values} (not changed); 0 for none. */
    public static long percentile(long[] values, int percent) {
        if (values.length == 0) {
            return 0;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)];
    }

    /** Nanoseconds as fractional milliseconds. */
    public static double millis(long nanos) {
        return nanos / 1e6;
    }
}
