package io.observatory.config;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.standard}: the standard observer (Xray "observatory", {@code app/observatory/observer.go}).
 * Xray's "0 means the default" holds for the probe interval.
 *
 * @param subjectSelector    tag prefixes choosing the outbounds to observe; an empty prefix selects every outbound
 *                           (as in Xray). Default: empty, and then nothing is probed (as in Xray)
 * @param probeUrl           absolute http(s) URL requested with GET through each outbound; a port in it must be
 *                           1-65535; blank means the default. Default: https://www.google.com/generate_204
 * @param probeInterval      pause after each probe (sequential) or after each round (concurrent), a duration such as
 *                           10s or 1.5s; 0 means the default. Values below 1s are kept (as in Xray) but logged as a
 *                           warning. Default: 10s
 * @param enableConcurrency  whether to probe all selected outbounds at once each round instead of one after another.
 *                           Default: false
 * @param expectedStatus     HTTP statuses that make a probe successful: any, one status (204), an inclusive range
 *                           (200-299) or a /-separated list of both (200/204/301-399), statuses 100-599; a response
 *                           with another status is a failed probe. Default: any (as in Xray: every response counts)
 * @param healthyThreshold   consecutive successful probes that make an outbound healthy, at least 1; below it the
 *                           previous state stays (a new outbound stays unknown). Default: 1 (as in Xray)
 * @param unhealthyThreshold consecutive failed probes that make an outbound unhealthy, at least 1; below it the
 *                           previous state stays. Default: 1 (as in Xray: every probe decides)
 */
public record StandardObserverSettings(
        @DefaultValue List<String> subjectSelector,
        @DefaultValue(DEFAULT_PROBE_URL) @HttpUrl String probeUrl,
        @DefaultValue(DEFAULT_PROBE_INTERVAL)
        @DurationMin(nanos = 0, inclusive = false,
                message = "a positive duration, or 0 for the default " + DEFAULT_PROBE_INTERVAL)
        Duration probeInterval,
        boolean enableConcurrency,
        @DefaultValue("any") ExpectedStatus expectedStatus,
        @DefaultValue("1") @Min(value = 1, message = ">= 1") int healthyThreshold,
        @DefaultValue("1") @Min(value = 1, message = ">= 1") int unhealthyThreshold) {

    /** Xray's default probe URL. */
    static final String DEFAULT_PROBE_URL = "https://www.google.com/generate_204";

    /** Xray's default probe interval. */
    static final String DEFAULT_PROBE_INTERVAL = "10s";

    /** Applies Xray's defaults for a blank URL and a zero interval; trims the URL. */
    public StandardObserverSettings {
        subjectSelector = List.copyOf(subjectSelector);
        probeUrl = probeUrl.isBlank() ? DEFAULT_PROBE_URL : probeUrl.strip();
        probeInterval = probeInterval.isZero() ? GoDuration.parse(DEFAULT_PROBE_INTERVAL) : probeInterval;
    }

    /** The probe URL, validated. */
    public URI probeUri() {
        return URI.create(probeUrl);
    }

    /** How probe results are judged: the expected statuses and the thresholds. */
    public ActiveCheck activeCheck() {
        return new ActiveCheck(expectedStatus, new ActiveHealthPolicy(healthyThreshold, unhealthyThreshold));
    }

    /** The interval in Go form ({@code 10s}), the URL's password masked. */
    @Override
    public String toString() {
        return "StandardObserverSettings[subjectSelector=" + subjectSelector + ", probeUrl=" + Redaction.redact(probeUrl)
                + ", probeInterval=" + GoDuration.format(probeInterval) + ", enableConcurrency=" + enableConcurrency
                + ", activeCheck=" + activeCheck() + "]";
    }
}
