package io.observatory.mesh.config;

/**
 * What an instance does in the mesh; one jar plays every role, and the role follows from which sections of
 * {@code observatory.mesh} are set: {@code hub}, {@code witness}, both, or neither.
 */
public enum MeshRole {
    /** No mesh: a single-vantage checker. */
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

    /** The role as the documentation writes it, e.g. {@code hub-and-witness}. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
