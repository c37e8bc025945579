package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import java.net.URI;
import java.time.Duration;

/**
 * Validated burst observer ping settings (Xray "burstObservatory.pingConfig"), defaults and clamps applied.
 *
 * <p>Xray caps none of interval, sampling and timeout; this service does ({@link #MAX_INTERVAL},
 * {@link #MAX_SAMPLING}, {@link #MAX_TIMEOUT}) because it sizes memory and time arithmetic from them: each outbound's
 * result ring has {@code sampling} slots and each cycle schedules {@code sampling} probes per outbound, and the cycle
 * ({@code interval × sampling}) and the validity ({@code 2 × cycle}) are counted in 64-bit nanoseconds. Within the
 * caps a cycle lasts at most 1,000 days and the validity fits easily.
 *
 * @param destination http(s) URL probed through each outbound
 * @param connectivity http(s) URL probed directly after a failure to tell a dead outbound from a dead network,
 *     or {@code null} to skip that check
 * @param interval average time between two samples of one outbound; 10 s to 24 h
 * @param sampling samples per outbound per cycle and ring capacity; 1 to 1,000
 * @param timeout deadline of one probe; positive, at most 10 min
 * @param httpMethod request method, trimmed, non-empty (GET reads the body into the RTT)
 */
public record PingConfig(
        URI destination, URI connectivity, Duration interval, int sampling, Duration timeout, String httpMethod) {

    /** Xray's default destination. */
    public static final URI DEFAULT_DESTINATION = URI.create("https://connectivitycheck.gstatic.com/generate_204");

    /** Xray's default interval. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

    /** Xray's smallest interval; shorter values are raised to it with a warning. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(10);

    /** Longest interval accepted (not an Xray limit): 24 h, one sample of each outbound a day on average. */
    public static final Duration MAX_INTERVAL = Duration.ofHours(24);

    /** Xray's default sampling count. */
    public static final int DEFAULT_SAMPLING = 10;

    /**
     * Largest sampling count accepted (not an Xray limit): 1,000 ring slots (17 bytes each) and 1,000 scheduled probes
     * per outbound and cycle.
     */
    public static final int MAX_SAMPLING = 1_000;

    /** Xray's default probe timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** Longest probe timeout accepted (not an Xray limit): 10 min, far beyond any useful probe. */
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

    /** Xray's default method. */
    public static final String DEFAULT_HTTP_METHOD = "HEAD";

    /** One cycle: {@code interval × sampling}, at most 1,000 days; each outbound gets {@code sampling} probes. */
    public Duration cycle() {
        return interval.multipliedBy(sampling);
    }

    /** How long a sample counts in the statistics: {@code 2 × cycle} (Xray), at most 2,000 days. */
    public Duration validity() {
        return cycle().multipliedBy(2);
    }

    /** Durations in Go form ({@code 1m0s}), URL passwords masked. */
    @Override
    public String toString() {
        return "PingConfig[destination=" + Redaction.redact(destination)
                + ", connectivity=" + (connectivity == null ? "none" : Redaction.redact(connectivity))
                + ", interval=" + GoDuration.format(interval) + ", sampling=" + sampling
                + ", timeout=" + GoDuration.format(timeout) + ", httpMethod=" + httpMethod + "]";
    }
}
