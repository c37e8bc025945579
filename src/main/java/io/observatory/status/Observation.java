package io.observatory.status;

import io.observatory.health.Availability;
import io.observatory.health.AvailabilityPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The one immutable snapshot every reader reads: each configured outbound's observer status and verdict, sorted by
 * tag, with the availability policy it is read under. Published whole by the writer through the
 * {@link ObservationStore}; the Xray API, the v1 API, grpc.health.v1, the actuator endpoint and the gauges all answer
 * from one snapshot, never from two. Costs one {@link OutboundHealth}, one hash entry and one array slot per
 * configured outbound.
 */
public final class Observation {

    private final Map<String, OutboundHealth> outbounds;
    // The same entries in tag order, for prefix ranges by binary search.
    private final OutboundHealth[] sorted;
    private final AvailabilityPolicy availability;
    private final OptionalLong observedAtNanos;

    /**
     * Copies {@code outbounds}; linear when it already iterates in tag order (as the updater builds it), else sorted.
     *
     * @param outbounds       by tag
     * @param availability    how {@link #available} builds the usable set
     * @param observedAtNanos when the observer last published its statuses (ticker nanoseconds); empty before the first
     */
    public Observation(Map<String, OutboundHealth> outbounds, AvailabilityPolicy availability,
            OptionalLong observedAtNanos) {
        Map<String, OutboundHealth> inOrder = inTagOrder(outbounds);
        this.outbounds = Collections.unmodifiableMap(inOrder);
        this.sorted = inOrder.values().toArray(new OutboundHealth[0]);
        this.availability = availability;
        this.observedAtNanos = observedAtNanos;
    }

    private static Map<String, OutboundHealth> inTagOrder(Map<String, OutboundHealth> outbounds) {
        String last = null;
        for (String tag : outbounds.keySet()) {
            if (last != null && last.compareTo(tag) >= 0) {
                return new LinkedHashMap<>(new TreeMap<>(outbounds));
            }
            last = tag;
        }
        return new LinkedHashMap<>(outbounds);
    }

    /** Every configured outbound by tag, iterating in tag order, with constant-time lookups; unmodifiable. */
    public Map<String, OutboundHealth> outbounds() {
        return outbounds;
    }

    /** How {@link #available} builds the usable set. */
    public AvailabilityPolicy availability() {
        return availability;
    }

    /** When the observer last published its statuses (ticker nanoseconds); empty before the first. */
    public OptionalLong observedAtNanos() {
        return observedAtNanos;
    }

    /** Every configured outbound, sorted by tag. */
    public Collection<OutboundHealth> all() {
        return outbounds.values();
    }

    /** The outbound with this tag, if configured. */
    public Optional<OutboundHealth> get(String tag) {
        return Optional.ofNullable(outbounds.get(tag));
    }

    /** The outbounds the observer has a status for, sorted by tag: what Xray's {@code GetOutboundStatus} returns. */
    public List<OutboundHealth> observed() {
        return outbounds.values().stream().filter(OutboundHealth::probed).toList();
    }

    /**
     * The outbounds whose tag starts with one of {@code prefixes}, sorted by tag; all of them for no prefix. Each
     * prefix is a range of the sorted tags found by binary search, so the cost is O(p log n + matches) for p
     * prefixes, not a scan; a prefix that another one in the list covers adds nothing.
     */
    public List<OutboundHealth> matching(List<String> prefixes) {
        if (prefixes.isEmpty()) {
            return List.of(sorted);
        }
        List<OutboundHealth> matches = new ArrayList<>();
        for (String prefix : widest(prefixes)) {
            for (int i = firstAtOrAfter(prefix); i < sorted.length && sorted[i].tag().startsWith(prefix); i++) {
                matches.add(sorted[i]);
            }
        }
        return Collections.unmodifiableList(matches);
    }

    /**
     * The prefixes in order with every one dropped that starts with another one of the list: their ranges are then
     * disjoint and come in tag order.
     */
    private static List<String> widest(List<String> prefixes) {
        List<String> ordered = new ArrayList<>(prefixes);
        Collections.sort(ordered);
        List<String> widest = new ArrayList<>(ordered.size());
        for (String prefix : ordered) {
            if (widest.isEmpty() || !prefix.startsWith(widest.get(widest.size() - 1))) {
                widest.add(prefix);
            }
        }
        return widest;
    }

    /** The index of the first tag not before {@code key} in tag order; the length when there is none. */
    private int firstAtOrAfter(String key) {
        int low = 0;
        int high = sorted.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted[middle].tag().compareTo(key) < 0) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /**
     * The usable outbounds of a selection under the availability policy (YARP's HealthyAndUnknown / HealthyOrPanic
     * with Envoy's panic threshold).
     *
     * @param selector tag prefixes; none selects every outbound
     * @return the usable outbounds, sorted by tag, and whether the policy is in panic
     */
    public Availability<OutboundHealth> available(List<String> selector) {
        return availability.select(matching(selector), OutboundHealth::verdict);
    }
}
