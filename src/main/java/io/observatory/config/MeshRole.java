package io.observatory.config;

/**
 * What an instance does in the mesh ({@code observatory.mesh.role}); one jar plays every role. Spring reads
 * {@code hub-and-witness} and {@code HUB_AND_WITNESS} alike.
 */
public enum MeshRole {
    /** No mesh: today's single-vantage checker. */
    OFF,
    /** Probes the fleet's entry points from here and reports to the hubs. */
    WITNESS,
    /** Takes the witnesses' reports, judges the fleet and serves the verdicts. */
    HUB,
    /** A hub that is also one of its own witnesses (its reports go to itself without the network). */
    HUB_AND_WITNESS;

    /** Whether this instance judges the fleet. */
    public boolean hub() {
        return this == HUB || this == HUB_AND_WITNESS;
    }

    /** Whether this instance probes the fleet and reports. */
    public boolean witness() {
        return this == WITNESS || this == HUB_AND_WITNESS;
    }
}
