package io.observatory.page;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A page of outbounds as the status page receives it: the body of {@code GET /status/api/outbounds}, and the data of
 * each {@code outbounds} event of the live stream. A snapshot carries the whole page; a later stream event carries
 * only what changed since the previous one. About 200 bytes plus 20 per tag of the window and one
 * {@link OutboundRow} per row sent: 52 KB for a snapshot of 100 rows, 256 KB for the largest page, 500 rows.
 *
 * @param now      the server's wall clock, unix milliseconds: what {@link OutboundRow#changed()} is aged against
 * @param total    every configured outbound
 * @param counts   the outbounds matching the prefix by verdict ({@link OutboundWindow#counts()})
 * @param matching the outbounds matching the prefix and the verdicts
 * @param offset   the query's offset
 * @param limit    the query's limit
 * @param window   the tags of the page, in order; in a stream event after the first, absent when unchanged
 * @param rows     a snapshot: every row of the page; a later stream event: the rows of the page that are new to it or
 *                 changed since the previous event, in page order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(SnakeCaseStrategy.class)
record OutboundPage(
        long now,
        int total,
        Map<String, Integer> counts,
        int matching,
        int offset,
        int limit,
        @Nullable List<String> window,
        List<OutboundRow> rows) {

    /** The whole page {@code window} of {@code query}, each row with its RTT history. */
    static OutboundPage snapshot(OutboundWindow window, PageQuery query, RttHistory history, long nowMillis) {
        return of(
                window,
                query,
                window.tags(),
                window.outbounds().stream()
                        .map(outbound -> OutboundRow.of(outbound, history.of(outbound.tag())))
                        .toList(),
                nowMillis);
    }

    /** A page of {@code window} carrying {@code tags} (or none) and {@code rows}. */
    static OutboundPage of(
            OutboundWindow window,
            PageQuery query,
            @Nullable List<String> tags,
            List<OutboundRow> rows,
            long nowMillis) {
        return new OutboundPage(
                nowMillis,
                window.total(),
                window.counts(),
                window.matching(),
                query.offset(),
                query.limit(),
                tags,
                rows);
    }
}
