package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import io.observatory.health.ActiveCheck;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Validated settings of the standard observer (Xray "observatory").
 *
 * @param subjectSelector tag prefixes; empty means the observer never starts (Xray lazy start)
 * @param probeUrl http(s) URL requested with GET through each outbound
 * @param probeInterval sleep after each probe (sequential) or after each round (concurrent); positive, no upper bound
 *     (it only delays the next step)
 * @param enableConcurrency {@code true}: probe all selected outbounds at once per round
 * @param activeCheck how probe results are judged (expected status, thresholds); {@link ActiveCheck#DEFAULT} = Xray
 */
public record StandardObserverSettings(
        List<String> subjectSelector, URI probeUrl, Duration probeInterval, boolean enableConcurrency,
        ActiveCheck activeCheck) {

    /** Xray's default probe URL. */
    public static final URI DEFAULT_PROBE_URL = URI.create("https://www.google.com/generate_204");

    /** Xray's default probe interval. */
    public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(10);

    /**
     * Probe intervals below this, 1 s, are kept as Xray keeps them but logged as a warning: the interval is the only
     * pause between probes, so outbounds may be probed more than once a second.
     */
    public static final Duration SHORT_PROBE_INTERVAL = Duration.ofSeconds(1);

    /** Xray's probe deadline: 5 s for the whole request (connect, proxy and TLS handshakes, response headers). */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    public StandardObserverSettings {
        subjectSelector = List.copyOf(subjectSelector);
        Objects.requireNonNull(activeCheck, "activeCheck");
    }

    /** The interval in Go form ({@code 10s}), the URL's password masked. */
    @Override
    public String toString() {
        return "StandardObserverSettings[subjectSelector=" + subjectSelector
                + ", probeUrl=" + Redaction.redact(probeUrl)
                + ", probeInterval=" + GoDuration.format(probeInterval)
                + ", enableConcurrency=" + enableConcurrency
                + ", activeCheck=" + activeCheck + "]";
    }
}
