package io.observatory.state;

import com.google.protobuf.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Wall times in the state file: {@code google.protobuf.Timestamp}, unset for none. */
final class Timestamps {

    /** The longest age {@link #ageNanos} returns: a quarter of the ticker's range. */
    static final long MAX_AGE_NANOS = Long.MAX_VALUE / 4;

    private Timestamps() {}

    static Timestamp of(Instant instant) {
        return Timestamp.newBuilder()
                .setSeconds(instant.getEpochSecond())
                .setNanos(instant.getNano())
                .build();
    }

    static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    /**
     * The wall time of the ticker reading {@code nanos}, given one moment read on both: {@code taken} on the wall
     * clock and {@code takenNanos} on the ticker; for saving a time that only this process's ticker knows.
     */
    static Timestamp wall(long nanos, Instant taken, long takenNanos) {
        return of(taken.minusNanos(takenNanos - nanos));
    }

    /**
     * How long before {@code now} the wall time {@code at} was, in nanoseconds, for putting a saved time on this
     * process's ticker: 0 for a time after {@code now} (written by a clock ahead of this one, or before this one was
     * set back), so that no restored sample, bucket or unhealthy state lasts longer than it would have; at most {@value
     * #MAX_AGE_NANOS} (about 73 years), so that ticker arithmetic cannot overflow.
     */
    static long ageNanos(Timestamp at, Instant now) {
        Duration age = Duration.between(instant(at), now);
        if (age.isNegative()) {
            return 0;
        }
        return age.compareTo(Duration.ofNanos(MAX_AGE_NANOS)) >= 0 ? MAX_AGE_NANOS : age.toNanos();
    }

    /** The instant of a timestamp field, {@code null} when unset. */
    static @Nullable Instant optional(boolean set, Timestamp timestamp) {
        return set ? instant(timestamp) : null;
    }
}
