package io.observatory.verdict;

import java.util.List;
import java.util.Objects;

/**
 * One publication of the {@link VerdictKeeper}: the new board and the real changes since the previous one.
 *
 * @param board  the board just published
 * @param events the changes that led to it, in tag order; empty when only evidence (RTTs, counts) changed
 */
public record BoardUpdate(HealthBoard board, List<VerdictEvent> events) {

    public BoardUpdate {
        Objects.requireNonNull(board, "board");
        events = List.copyOf(events);
    }
}
