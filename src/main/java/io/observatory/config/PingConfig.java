package io.observatory.config;

import java.net.URI;
import java.time.Duration;

/**
 * Validated burst observer ping settings (Xray "burstObservatory.pingConfig"), defaults and clamps applied.
 *
 * @param destination http(s) URL probed through each outbound
 * @param connectivity http(s) URL probed directly after a failure to tell a dead outbound from a dead network,
 *     or {@code null} to skip that check
 * @param interval average time between two samples of one outbound; at least 10 s
 * @param sampling samples per outbound per cycle and ring capacity; positive
 * @param timeout deadline of one probe; positive
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

    /** Xray's default sampling count. */
    public static final int DEFAULT_SAMPLING = 10;

    /** Xray's default probe timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** Xray's default method. */
    public static final String DEFAULT_HTTP_METHOD = "HEAD";

    /** One cycle: {@code interval × sampling}; each outbound gets {@code sampling} probes per cycle. */
    public Duration cycle() {
        return interval.multipliedBy(sampling);
    }

    /** How long a sample counts in the statistics: {@code 2 × cycle} (Xray). */
    public Duration validity() {
        return cycle().multipliedBy(2);
    }
}
