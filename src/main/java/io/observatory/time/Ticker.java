package io.observatory.time;

/**
 * A monotonic nanosecond clock for measuring durations (RTTs, ages); injected so tests can drive time by hand
 * (grpc-java's {@code Ticker} idea). Readings are only meaningful relative to each other.
 */
@FunctionalInterface
public interface Ticker {

    /** Returns the current reading in nanoseconds. */
    long nanoTime();

    /** Returns the JVM's {@link System#nanoTime()} ticker. */
    static Ticker system() {
        return System::nanoTime;
    }
}
