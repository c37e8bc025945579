package io.observatory.status;

import java.util.Comparator;
import java.util.List;

/**
 * An immutable snapshot of every observed outbound's status, sorted by tag: what the API serves.
 *
 * @param statuses one entry per observed outbound, sorted by tag
 */
public record Observation(List<OutboundStatus> statuses) {

    /** No outbound observed. */
    public static final Observation EMPTY = new Observation(List.of());

    public Observation {
        statuses = statuses.stream().sorted(Comparator.comparing(OutboundStatus::tag)).toList();
    }
}
