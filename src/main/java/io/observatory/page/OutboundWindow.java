package io.observatory.page;

import io.observatory.health.HealthState;
import io.observatory.snapshot.Observation;
import io.observatory.snapshot.OutboundHealth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one client of the status page shows, read from one observation: the outbounds whose tag matches the query's
 * prefix counted by verdict, how many of them also have one of its verdicts, and the page of those. Costs one pass
 * over the outbounds matching the prefix (found by binary search, {@link Observation#matching}).
 *
 * @param total     every configured outbound
 * @param counts    the outbounds matching the prefix by verdict, keyed {@code healthy}, {@code degraded},
 *                  {@code unhealthy}, {@code unknown} in that order
 * @param matching  the outbounds matching the prefix and the verdicts: what the pages are cut from
 * @param outbounds the page: those from the query's offset on, at most its limit, in tag order
 */
record OutboundWindow(int total, Map<String, Integer> counts, int matching, List<OutboundHealth> outbounds) {

    private static final List<HealthState> ORDER =
            List.of(HealthState.HEALTHY, HealthState.DEGRADED, HealthState.UNHEALTHY, HealthState.UNKNOWN);

    OutboundWindow {
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        outbounds = List.copyOf(outbounds);
    }

    /** The window of {@code query} in {@code observation}. */
    static OutboundWindow of(Observation observation, PageQuery query) {
        Map<HealthState, Integer> byVerdict = new EnumMap<>(HealthState.class);
        List<OutboundHealth> page = new ArrayList<>(Math.min(query.limit(), 64));
        int matching = 0;
        for (OutboundHealth outbound : observation.matching(query.prefixes())) {
            byVerdict.merge(outbound.verdict(), 1, Integer::sum);
            if (query.verdicts().contains(outbound.verdict())) {
                if (matching >= query.offset() && page.size() < query.limit()) {
                    page.add(outbound);
                }
                matching++;
            }
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        ORDER.forEach(state -> counts.put(OutboundRow.name(state), byVerdict.getOrDefault(state, 0)));
        return new OutboundWindow(observation.all().size(), counts, matching, page);
    }

    /** The tags of the page, in order. */
    List<String> tags() {
        return outbounds.stream().map(OutboundHealth::tag).toList();
    }
}
