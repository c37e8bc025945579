package io.observatory.mesh.witness;

import io.observatory.config.Outbound;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The fleet as one witness probes it, as a hub handed it out: every entry point of every server but the witness's
 * own, and how to probe and report. Immutable; one {@link Target} per entry point.
 *
 * @param targets        by tag {@code <server>/<entry>}, in fleet order
 * @param probeInterval  between two probes of one entry point, positive
 * @param timeout        of one probe, positive
 * @param reportInterval between two reports, positive
 */
public record WitnessFleet(
        Map<String, Target> targets, Duration probeInterval, Duration timeout, Duration reportInterval) {

    public WitnessFleet {
        targets = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(targets));
        Objects.requireNonNull(probeInterval, "probeInterval");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(reportInterval, "reportInterval");
    }

    /**
     * An entry point this witness probes.
     *
     * @param server     its server
     * @param entryPoint its name
     * @param outbound   how to reach it, tagged {@code <server>/<entry>}
     * @param url        what to request through it
     */
    public record Target(String server, String entryPoint, Outbound outbound, URI url) {}
}
