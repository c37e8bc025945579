package io.observatory.snapshot;

import io.observatory.health.Availability;
import io.observatory.health.AvailabilityPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The one immutable snapshot every reader reads: each configured outbound's observer status, passive state, source
 * states and verdict, sorted by tag, with the availability policy it is read under, and each capability's
 * {@linkplain #part part} (e.g. the mesh's view of its fleet). Published whole by the writer through the
 * {@link ObservationStore}; the Xray API, the v1 API, grpc.health.v1, the actuator endpoint, the gauges and the
 * capabilities' readers all answer from one snapshot, never from two.
 *
 * <p>The entries sit in tag order in pages ({@link PagedEntries}), found by tag through an index of positions that
 * snapshots of the same outbounds share, so {@link #with} makes the next snapshot by copying the page table and the
 * changed pages only: no hashing, sorting or map building per publication, and at 10,000 outbounds about 1 KB copied
 * for one change. Costs one {@link OutboundHealth}, about one reference and (shared) one index entry per configured
 * outbound, and one reference per capability part.
 */
public final class Observation {

    // Tag -> position in sorted; shared by every snapshot with the same outbounds, never modified.
    private final Map<String, Integer> index;
    private final PagedEntries sorted;
    private final List<OutboundHealth> all;
    private final AvailabilityPolicy availability;
    private final OptionalLong observedAtNanos;
    // Part name -> value, as the capabilities published them; never modified.
    private final Map<String, Object> parts;

    /**
     * Copies {@code outbounds} in tag order; linear when it already iterates in tag order (as the updater builds
     * it), else sorted.
     *
     * @param outbounds       by tag
     * @param availability    how {@link #available} builds the usable set
     * @param observedAtNanos when the observer last published its statuses (ticker nanoseconds); empty before the first
     */
    public Observation(
            Map<String, OutboundHealth> outbounds, AvailabilityPolicy availability, OptionalLong observedAtNanos) {
        Map<String, OutboundHealth> ordered = inTagOrder(outbounds);
        this.index = indexOf(ordered);
        this.sorted = PagedEntries.of(List.copyOf(ordered.values()));
        this.all = sorted.asList();
        this.availability = availability;
        this.observedAtNanos = observedAtNanos;
        this.parts = Map.of();
    }

    private Observation(
            Map<String, Integer> index,
            PagedEntries sorted,
            AvailabilityPolicy availability,
            OptionalLong observedAtNanos,
            Map<String, Object> parts) {
        this.index = index;
        this.sorted = sorted;
        this.all = sorted.asList();
        this.availability = availability;
        this.observedAtNanos = observedAtNanos;
        this.parts = parts;
    }

    private static Map<String, OutboundHealth> inTagOrder(Map<String, OutboundHealth> outbounds) {
        String last = null;
        for (String tag : outbounds.keySet()) {
            if (last != null && last.compareTo(tag) >= 0) {
                return new TreeMap<>(outbounds);
            }
            last = tag;
        }
        return outbounds;
    }

    private static Map<String, Integer> indexOf(Map<String, OutboundHealth> inTagOrder) {
        Map<String, Integer> index = new HashMap<>(inTagOrder.size() * 4 / 3 + 1);
        int position = 0;
        for (String tag : inTagOrder.keySet()) {
            index.put(tag, position++);
        }
        return Collections.unmodifiableMap(index);
    }

    /**
     * The next snapshot of the same outbounds: this one with {@code changed} in place of the entries with their tags,
     * and the observer's publication time {@code observedAtNanos}. Costs O(changes): the page table and the changed
     * pages are copied, every other page is shared.
     *
     * @throws IllegalArgumentException when a changed entry's tag is not one of this snapshot's outbounds (a change
     *     of the set of outbounds needs the full constructor)
     */
    public Observation with(Collection<OutboundHealth> changed, OptionalLong observedAtNanos) {
        int[] positions = new int[changed.size()];
        OutboundHealth[] replacements = new OutboundHealth[changed.size()];
        int i = 0;
        for (OutboundHealth outbound : changed) {
            Integer position = index.get(outbound.tag());
            if (position == null) {
                throw new IllegalArgumentException("outbound " + outbound.tag() + " is not in the observation");
            }
            positions[i] = position;
            replacements[i++] = outbound;
        }
        PagedEntries next = sorted.with(positions, replacements);
        return new Observation(index, next, availability, observedAtNanos, parts);
    }

    /**
     * This snapshot with {@code value} as the capability part {@code part}: the same outbounds (shared, no copy) and
     * the other parts. O(parts).
     */
    public <T> Observation withPart(SnapshotPart<T> part, T value) {
        Map<String, Object> next = new HashMap<>(parts);
        next.put(part.name(), part.type().cast(value));
        return new Observation(index, sorted, availability, observedAtNanos, Map.copyOf(next));
    }

    /** This snapshot's capability parts on {@code outbounds}, a snapshot of the same or other outbounds. O(parts). */
    Observation partsOnto(Observation outbounds) {
        return new Observation(
                outbounds.index, outbounds.sorted, outbounds.availability, outbounds.observedAtNanos, parts);
    }

    /** The capability part {@code part}: its last published value, or its empty value before the first. O(1). */
    public <T> T part(SnapshotPart<T> part) {
        Object value = parts.get(part.name());
        return value == null ? part.empty() : part.type().cast(value);
    }

    /** How {@link #available} builds the usable set. */
    public AvailabilityPolicy availability() {
        return availability;
    }

    /** When the observer last published its statuses (ticker nanoseconds); empty before the first. */
    public OptionalLong observedAtNanos() {
        return observedAtNanos;
    }

    /** Every configured outbound, sorted by tag; unmodifiable, a view (no copy). */
    public List<OutboundHealth> all() {
        return all;
    }

    /** The outbound with this tag, if configured. */
    public Optional<OutboundHealth> get(String tag) {
        Integer position = index.get(tag);
        return position == null ? Optional.empty() : Optional.of(sorted.get(position));
    }

    /** The outbounds the observer has a status for, sorted by tag: what Xray's {@code GetOutboundStatus} returns. */
    public List<OutboundHealth> observed() {
        return all.stream().filter(OutboundHealth::probed).toList();
    }

    /**
     * The outbounds whose tag starts with one of {@code prefixes}, sorted by tag; all of them for no prefix. Each
     * prefix is a range of the sorted tags found by binary search, so the cost is O(p log n + matches) for p
     * prefixes, not a scan; a prefix that another one in the list covers adds nothing.
     */
    public List<OutboundHealth> matching(List<String> prefixes) {
        if (prefixes.isEmpty()) {
            return all;
        }
        List<OutboundHealth> matches = new ArrayList<>();
        for (String prefix : widest(prefixes)) {
            for (int i = firstAtOrAfter(prefix);
                    i < sorted.size() && sorted.get(i).tag().startsWith(prefix);
                    i++) {
                matches.add(sorted.get(i));
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
        int high = sorted.size();
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (sorted.get(middle).tag().compareTo(key) < 0) {
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
