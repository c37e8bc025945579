package io.observatory.snapshot;

import java.util.List;
import java.util.Objects;

/**
 * One publication of the writer: the new {@link Observation} and, in tag order, every outbound whose entry changed
 * since the previous one. Costs one event per changed outbound, none for the others.
 */
public final class ObservationUpdate {

    private final Observation observation;
    private final List<OutboundEvent> events;
    private final List<OutboundEvent> transitions;

    /**
     * @param observation the observation just published
     * @param events      the changes that led to it, in tag order
     */
    public ObservationUpdate(Observation observation, List<OutboundEvent> events) {
        this.observation = Objects.requireNonNull(observation, "observation");
        this.events = List.copyOf(events);
        this.transitions =
                this.events.stream().filter(OutboundEvent::transition).toList();
    }

    /** The observation just published. */
    public Observation observation() {
        return observation;
    }

    /** Every change, in tag order; empty when only the time of the observer's publication moved. */
    public List<OutboundEvent> events() {
        return events;
    }

    /** The real changes among {@link #events()}: outbounds added, removed, or with a changed state. */
    public List<OutboundEvent> transitions() {
        return transitions;
    }
}
