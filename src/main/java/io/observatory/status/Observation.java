package io.observatory.status;

import io.observatory.config.SubjectSelector;
import io.observatory.health.Availability;
import io.observatory.health.AvailabilityPolicy;
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
 * from one snapshot, never from two. Costs one {@link OutboundHealth} per configured outbound.
 *
 * @param outbounds       by tag, iterating in tag order
 * @param availability    how {@link #available} builds the usable set
 * @param observedAtNanos when the observer last published its statuses (ticker nanoseconds); empty before the first
 */
public record Observation(Map<String, OutboundHealth> outbounds, AvailabilityPolicy availability,
        OptionalLong observedAtNanos) {

    /**
     * Copies {@code outbounds} into an unmodifiable map iterating in tag order, with constant-time lookups; linear
     * when {@code outbounds} already iterates in tag order (as the updater builds it).
     */
    public Observation {
        outbounds = Collections.unmodifiableMap(inTagOrder(outbounds));
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

    /** The outbounds whose tag starts with one of {@code prefixes}, sorted by tag; all of them for no prefix. */
    public List<OutboundHealth> matching(List<String> prefixes) {
        if (prefixes.isEmpty()) {
            return List.copyOf(outbounds.values());
        }
        SubjectSelector selector = new SubjectSelector(prefixes);
        return outbounds.values().stream().filter(outbound -> selector.selects(outbound.tag())).toList();
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
