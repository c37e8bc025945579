package io.observatory.state;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Wall times in the state file: {@code google.protobuf.Timestamp}, unset for none. */
final class Timestamps {

    private Timestamps() {
    }

    static Timestamp of(Instant instant) {
        return Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
    }

    static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    /** The instant of a timestamp field, {@code null} when unset. */
    static @Nullable Instant optional(boolean set, Timestamp timestamp) {
        return set ? instant(timestamp) : null;
    }
}
