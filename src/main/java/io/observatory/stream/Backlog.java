package io.observatory.stream;

import org.jspecify.annotations.Nullable;

/**
 * What a stream has to send, as its producer left it: the latest state of something (conflated), or a bounded queue
 * of events that collapses into one snapshot when it overflows. The producer adds; the stream's {@link Pump} takes.
 * Thread-safe where producer and pump run on different threads ({@link Events}, {@link Latest}); messages are built
 * when taken, on the pump's thread, never on the producer's.
 *
 * @param <M> the message type
 */
public interface Backlog<M> {

    /** The next message to send, built now; {@code null} when nothing is due. */
    @Nullable
    M take();

    /** Puts back a message taken but not sent (the budget held it back), to go out first. */
    void putBack(M message);

    /** Whether nothing is due. */
    boolean isEmpty();

    /** Drops everything due: the stream is ending. */
    void clear();
}
