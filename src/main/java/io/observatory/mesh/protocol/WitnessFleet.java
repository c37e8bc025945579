package io.observatory.mesh.protocol;

import io.observatory.config.Outbound;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

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
     * @param outbound   how to reach it, tagged {@code <server>/<entry>}, with its own probe URL if it has one; for an
     *                   entry point of protocol xray, once carried, SOCKS5 to the witness's core
     * @param xrayOutbound for protocol xray: the Xray outbound object (JSON), a secret; else {@code null}
     */
    public record Target(
            String server,
            String entryPoint,
            Outbound outbound,
            @Nullable String xrayOutbound) {

        /** An entry point the prober reaches by itself. */
        public Target(String server, String entryPoint, Outbound outbound) {
            this(server, entryPoint, outbound, null);
        }

        /**
         * The same entry point reached through {@code carried} (SOCKS5 to a proxy core's inbound), with its own probe
         * URL if it has one.
         */
        public Target through(Outbound carried) {
            Outbound via = new Outbound(
                    outbound.tag(),
                    carried.protocol(),
                    carried.address(),
                    carried.port(),
                    carried.username(),
                    carried.password(),
                    outbound.probeUrl());
            return new Target(server, entryPoint, via, xrayOutbound);
        }

        /** Never prints the Xray outbound object. */
        @Override
        public String toString() {
            return "Target[" + server + "/" + entryPoint + ", " + outbound + "]";
        }
    }
}
