package io.observatory.verdict;

import io.observatory.health.Availability;
import io.observatory.health.AvailabilityPolicy;
import io.observatory.health.HealthState;
import io.observatory.config.SubjectSelector;
import io.observatory.status.OutboundStatus;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An immutable snapshot of every configured outbound's health, sorted by tag, with the availability settings it is
 * read under: what the v1 API serves. Published whole by the {@link VerdictKeeper}.
 *
 * @param outbounds    by tag, iterating in tag order
 * @param availability how {@link #available} builds the usable set
 */
public record HealthBoard(Map<String, OutboundHealth> outbounds, AvailabilityPolicy availability) {

    /**
     * Copies {@code outbounds} into an unmodifiable map iterating in tag order, with constant-time lookups; linear
     * when {@code outbounds} already iterates in tag order (as the keeper builds it).
     */
    public HealthBoard {
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

    /** Every outbound, sorted by tag. */
    public Collection<OutboundHealth> all() {
        return outbounds.values();
    }

    /** The outbound with this tag, if configured. */
    public Optional<OutboundHealth> get(String tag) {
        return Optional.ofNullable(outbounds.get(tag));
    }

    /**
     * Xray's {@code alive} for an observer status: the observer's alive, and false while passive health says the
     * outbound is unhealthy (without passive reports exactly the observer's alive).
     */
    public boolean xrayAlive(OutboundStatus status) {
        HealthState passive = get(status.tag()).map(outbound -> outbound.passive().state()).orElse(HealthState.UNKNOWN);
        return OutboundHealth.xrayAlive(status, passive);
    }

    /** The verdict of the outbound {@code tag}, UNKNOWN when it is not on the board. */
    public HealthState verdict(String tag) {
        return get(tag).map(OutboundHealth::verdict).orElse(HealthState.UNKNOWN);
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
