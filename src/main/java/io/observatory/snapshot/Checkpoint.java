package io.observatory.snapshot;

import io.observatory.config.ObservatoryConfig;
import java.time.Duration;
import java.time.Instant;

/**
 * State a capability keeps across a restart, saved in the state file beside the observation's when warm restart is on
 * ({@code observatory.state}). The file's writer calls {@link #take()} on the writer thread and {@link Taken#encode()}
 * off it; a starting process calls {@link #restore} once, on the writer, before any lifecycle starts. Each part of the
 * file carries its checkpoint's {@link #name()}; a part no registered checkpoint names is skipped, and a checkpoint
 * whose part is missing restores nothing. Register one as a bean.
 */
public interface Checkpoint {

    /** The name its part of the state file carries, unique among checkpoints and stable across versions. */
    String name();

    /**
     * Takes what to save, on the writer: immutable references or a copy, no encoding.
     *
     * @return the state to encode off the writer; {@link Taken#NOTHING} when there is nothing to save
     */
    Taken take();

    /**
     * How long its saved state stays of use, from the configuration a process starts with: a restore drops what is
     * older unless {@code observatory.state.max-age} is set. At least a minute applies whatever this says.
     */
    Duration horizon(ObservatoryConfig config);

    /**
     * Restores what a previous process saved. Writer only, before any lifecycle starts.
     *
     * @param saved  the bytes {@link Taken#encode()} returned
     * @param config the configuration this process starts with
     * @param now    this process's wall clock
     * @param maxAge entries older than this are dropped, as are entries more than this ahead of {@code now}
     * @return what was restored and dropped, for the restore's log line
     * @throws IllegalArgumentException when {@code saved} is not a state this checkpoint wrote
     */
    Restored restore(byte[] saved, ObservatoryConfig config, Instant now, Duration maxAge);

    /** A checkpoint's state taken on the writer, encoded later off it. */
    @FunctionalInterface
    interface Taken {

        /** Nothing to save: the file gets no part for the checkpoint. */
        Taken NOTHING = () -> new byte[0];

        /** The state's bytes; empty for nothing. Off the writer. */
        byte[] encode();
    }

    /**
     * What a restore took and dropped.
     *
     * @param what     what an entry is, plural, e.g. {@code witness reports}
     * @param restored entries taken
     * @param old      entries dropped as older than the max age
     * @param future   entries dropped as more than the max age ahead of this process's clock
     * @param gone     entries dropped as belonging to nothing configured now
     */
    record Restored(String what, int restored, int old, int future, int gone) {}
}
