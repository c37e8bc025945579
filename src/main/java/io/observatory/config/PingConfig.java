package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.time.Duration;
import org.hibernate.validator.constraints.Range;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.burst.ping-config}: Xray's "pingConfig" ({@code NewHealthPing} in
 * {@code app/observatory/burst/healthping.go}). Xray's "0 means the default" holds for interval, sampling and
 * timeout; a blank destination means the default and a blank connectivity URL none.
 *
 * <p>Xray caps none of interval, sampling and timeout; this service does (24 h, 1,000, 10 min) because it sizes
 * memory and time arithmetic from them: each outbound's result ring has {@code sampling} slots (17 bytes each) and
 * each cycle schedules {@code sampling} probes per outbound, and the cycle ({@code interval × sampling}) and the
 * validity ({@code 2 × cycle}) are counted in 64-bit nanoseconds. Within the caps a cycle lasts at most 1,000 days.
 *
 * @param destination  absolute http(s) URL probed through each outbound; a port in it must be 1-65535; blank means
 *                     the default. Default: https://connectivitycheck.gstatic.com/generate_204
 * @param connectivity absolute http(s) URL probed directly (not through the outbound) after a failed probe; when it
 *                     fails too, the network is down and the sample is discarded. Default: empty, no check
 * @param interval     average time between two samples of one outbound, a duration such as 1m; a cycle lasts
 *                     interval × sampling. 0 means the default; values below 10s are raised to 10s with a warning (as
 *                     in Xray); at most 24h (a limit Xray does not have). Default: 1m
 * @param sampling     number of samples per outbound per cycle, also how many are kept, 1-1000 (a limit Xray does
 *                     not have); 0 means the default. Default: 10
 * @param timeout      deadline of one probe, a duration such as 5s, at most 10m (a limit Xray does not have); 0
 *                     means the default. Default: 5s
 * @param httpMethod   HTTP method of the probe (not CONNECT), trimmed; with GET the body is read and counted in the
 *                     RTT. Default: HEAD
 */
public record PingConfig(
        @DefaultValue(DEFAULT_DESTINATION) @HttpUrl String destination,
        @DefaultValue("") @HttpUrl @Nullable String connectivity,

        @DefaultValue(DEFAULT_INTERVAL)
        @DurationMin(nanos = 0, inclusive = false, message = INTERVAL_EXPECTED)
        @DurationMax(hours = 24, message = INTERVAL_EXPECTED)
        Duration interval,

        @DefaultValue("" + DEFAULT_SAMPLING)
        @Range(
                min = 1,
                max = MAX_SAMPLING,
                message = "1-" + MAX_SAMPLING + " samples, or 0 for the default " + DEFAULT_SAMPLING)
        int sampling,

        @DefaultValue(DEFAULT_TIMEOUT)
        @DurationMin(nanos = 0, inclusive = false, message = TIMEOUT_EXPECTED)
        @DurationMax(minutes = 10, message = TIMEOUT_EXPECTED)
        Duration timeout,

        @DefaultValue(DEFAULT_HTTP_METHOD)
        @Pattern(
                regexp = "(?!CONNECT$)" + ProbeSettings.TOKEN,
                message = "an HTTP method such as HEAD or GET (CONNECT opens a tunnel, it probes nothing)")
        String httpMethod) {

    /** Xray's default destination. */
    static final String DEFAULT_DESTINATION = "https://connectivitycheck.gstatic.com/generate_204";

    /** Xray's default interval. */
    static final String DEFAULT_INTERVAL = "1m0s";

    /** Xray's default sampling count. */
    static final int DEFAULT_SAMPLING = 10;

    /** Largest sampling count accepted (not an Xray limit). */
    static final int MAX_SAMPLING = 1_000;

    /** Xray's default probe timeout. */
    static final String DEFAULT_TIMEOUT = "5s";

    /** Xray's default method. */
    static final String DEFAULT_HTTP_METHOD = "HEAD";

    /** Xray's smallest interval; shorter ones are raised to it, with a warning ({@code NewHealthPing}). */
    static final Duration MIN_INTERVAL = Duration.ofSeconds(10);

    private static final String INTERVAL_EXPECTED =
            "a positive duration up to 24h0m0s, or 0 for the default " + DEFAULT_INTERVAL;

    private static final String TIMEOUT_EXPECTED =
            "a positive duration up to 10m0s, or 0 for the default " + DEFAULT_TIMEOUT;

    /** Applies Xray's defaults for zeros and blanks; trims URLs and the method. */
    public PingConfig {
        destination = destination.isBlank() ? DEFAULT_DESTINATION : destination.strip();
        connectivity = connectivity == null || connectivity.isBlank() ? null : connectivity.strip();
        interval = interval.isZero() ? GoDuration.parse(DEFAULT_INTERVAL) : interval;
        sampling = sampling == 0 ? DEFAULT_SAMPLING : sampling;
        timeout = timeout.isZero() ? GoDuration.parse(DEFAULT_TIMEOUT) : timeout;
        httpMethod = httpMethod.strip();
    }

    /** The destination URL, validated. */
    public URI destinationUri() {
        return URI.create(destination);
    }

    /** The connectivity URL, validated, or {@code null} when no connectivity check is configured. */
    public @Nullable URI connectivityUri() {
        return connectivity == null ? null : URI.create(connectivity);
    }

    /** The interval applied: {@link #interval()}, raised to Xray's 10 s when shorter. */
    public Duration effectiveInterval() {
        return interval.compareTo(MIN_INTERVAL) < 0 ? MIN_INTERVAL : interval;
    }

    /** One cycle: {@code effectiveInterval × sampling}, at most 1,000 days; each outbound gets {@code sampling} probes. */
    public Duration cycle() {
        return effectiveInterval().multipliedBy(sampling);
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
