package io.observatory.mesh.protocol;

import io.observatory.config.Outbound;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The fleet as one witness probes it, as a hub handed it out: every entry point of every server but the witness's
 * own, and how to probe and report. Immutable; one {@link Target} per entry point.
 *
 * @param targets        by tag {@code <server>/<entry>}, in fleet order
 * @param probeUrl       what to request through an entry point that sets no URL of its own
 * @param probeInterval  between the answer to one probe of an entry point and the next probe, positive
 * @param timeout        of one probe, positive
 * @param reportInterval between two reports, positive
 */
public record WitnessFleet(
        Map<String, Target> targets, URI probeUrl, Duration probeInterval, Duration timeout, Duration reportInterval) {

    public WitnessFleet {
        targets = Collections.unmodifiableMap(new LinkedHashMap<>(targets));
        Objects.requireNonNull(probeUrl, "probeUrl");
        Objects.requireNonNull(probeInterval, "probeInterval");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(reportInterval, "reportInterval");
    }

    /**
     * An entry point this witness probes.
     *
     * @param server     its server
     * @param entryPoint its name
     * @param outbound   how to reach it, tagged {@code <server>/<entry>}, with its own probe URL if it has one
     */
    public record Target(String server, String entryPoint, Outbound outbound) {}
}
