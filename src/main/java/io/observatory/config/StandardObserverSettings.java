package io.observatory.config;

import io.observatory.health.ActiveCheck;
import io.observatory.health.ActiveHealthPolicy;
import io.observatory.health.ExpectedStatus;
import io.observatory.health.ProbeIntervals;
import io.observatory.text.GoDuration;
import io.observatory.text.Redaction;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
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
 * @param schedule           {@code xray}: Xray's rounds, sequential or concurrent by {@code enable-concurrency};
 *                           {@code per-outbound}: every selected outbound has its own probe session with its own
 *                           next-probe time (Envoy's and HAProxy's model), so a slow or black-holed outbound delays
 *                           no other, with the intervals below; {@code enable-concurrency} then has no effect.
 *                           Default: xray
 * @param timeout            the deadline of one probe (connect, proxy and TLS handshakes, response headers), a
 *                           positive duration. Default: 5s (Xray's fixed deadline)
 * @param connectTimeout     the deadline of each phase that opens the path, within {@code timeout}: the TCP connect,
 *                           then the proxy handshake, then the TLS handshake, each on its own (HAProxy's
 *                           {@code timeout connect}, which it caps at {@code inter}): a black-holed server (packets
 *                           dropped) fails a probe after this rather than after the whole timeout. At most the timeout.
 *                           Linux resends an unanswered SYN after 1 s: a deadline of exactly 1 s would lose the race
 *                           to the answer of that resend (HAProxy's checks, which wake a few milliseconds late, win
 *                           it), hence the 20 ms over the interval; a path whose RTT is longer needs more to survive a
 *                           lost SYN. Default: per-outbound, the smaller of the timeout and the probe interval plus
 *                           20 ms; xray, the timeout (Xray's single deadline)
 * @param initialJitter      per-outbound only: each outbound's first probe is due after a random time in [0, this),
 *                           so first probes spread out (Envoy's {@code initial_jitter}); 0 probes all at once.
 *                           Default: the probe interval
 * @param intervalJitter     per-outbound only: each later wait is lengthened by a random time in [0, this) (Envoy's
 *                           {@code interval_jitter}). Default: 0s
 * @param unhealthyInterval  per-outbound only: the wait after a probe of an unhealthy outbound with no transition
 *                           pending (Envoy's {@code unhealthy_interval}, HAProxy's {@code downinter}). Default: the
 *                           probe interval
 * @param unhealthyEdgeInterval per-outbound only: the wait after a failed probe of an outbound that is not unhealthy
 *                           yet, while its failures are below the unhealthy threshold (Envoy's
 *                           {@code unhealthy_edge_interval}, HAProxy's {@code fastinter}). Default: the unhealthy
 *                           interval
 * @param healthyEdgeInterval per-outbound only: the wait after a successful probe of an outbound that is not healthy
 *                           yet, while its successes are below the healthy threshold (Envoy's
 *                           {@code healthy_edge_interval}, HAProxy's {@code fastinter}). Default: the probe interval
 */
public record StandardObserverSettings(
        @DefaultValue List<String> subjectSelector,
        @DefaultValue(DEFAULT_PROBE_URL) @HttpUrl String probeUrl,

        @DefaultValue(DEFAULT_PROBE_INTERVAL)
        @DurationMin(
                nanos = 0,
                inclusive = false,
                message = "a positive duration, or 0 for the default " + DEFAULT_PROBE_INTERVAL)
        Duration probeInterval,

        boolean enableConcurrency,
        @DefaultValue("any") ExpectedStatus expectedStatus,
        @DefaultValue("1") @Min(value = 1, message = ">= 1") int healthyThreshold,
        @DefaultValue("1") @Min(value = 1, message = ">= 1") int unhealthyThreshold,
        @DefaultValue("xray") Schedule schedule,

        @DefaultValue(DEFAULT_TIMEOUT) @DurationMin(nanos = 0, inclusive = false, message = POSITIVE)
        Duration timeout,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = POSITIVE)
        Duration connectTimeout,

        @Nullable @DurationMin(nanos = 0, message = NOT_NEGATIVE)
        Duration initialJitter,

        @DefaultValue("0s") @DurationMin(nanos = 0, message = NOT_NEGATIVE)
        Duration intervalJitter,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = POSITIVE)
        Duration unhealthyInterval,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = POSITIVE)
        Duration unhealthyEdgeInterval,

        @Nullable @DurationMin(nanos = 0, inclusive = false, message = POSITIVE)
        Duration healthyEdgeInterval)
        implements Checked {

    /** How the standard observer's probes are scheduled. */
    public enum Schedule {
        /** Xray's rounds: sequential, or concurrent with {@code enable-concurrency}. */
        XRAY,
        /** One probe session per outbound with its own next-probe time. */
        PER_OUTBOUND
    }

    private static final String POSITIVE = "a positive duration";
    private static final String NOT_NEGATIVE = "0 or a positive duration";

    /**
     * What the per-outbound schedule's default connect deadline adds to the probe interval, so that the answer to
     * Linux's resend of a lost SYN (1 s after the first) on a nearby path comes in time.
     */
    static final Duration CONNECT_GRACE = Duration.ofMillis(20);

    /** Xray's probe deadline: 5 s for the whole request. */
    static final String DEFAULT_TIMEOUT = "5s";

    /** Xray's default probe URL. */
    public static final String DEFAULT_PROBE_URL = "https://www.google.com/generate_204";

    /** Xray's default probe interval. */
    static final String DEFAULT_PROBE_INTERVAL = "10s";

    /**
     * Applies Xray's defaults for a blank URL and a zero interval, trims the URL, and resolves the per-outbound
     * intervals left out to their defaults (so two settings that probe alike are equal).
     */
    public StandardObserverSettings {
        subjectSelector = List.copyOf(subjectSelector);
        probeUrl = probeUrl.isBlank() ? DEFAULT_PROBE_URL : probeUrl.strip();
        probeInterval = probeInterval.isZero() ? GoDuration.parse(DEFAULT_PROBE_INTERVAL) : probeInterval;
        initialJitter = initialJitter == null ? probeInterval : initialJitter;
        if (connectTimeout == null) {
            Duration connect = probeInterval.plus(CONNECT_GRACE);
            boolean perOutbound = schedule == Schedule.PER_OUTBOUND && connect.compareTo(timeout) < 0;
            connectTimeout = perOutbound ? connect : timeout;
        }
        unhealthyInterval = unhealthyInterval == null ? probeInterval : unhealthyInterval;
        unhealthyEdgeInterval = unhealthyEdgeInterval == null ? unhealthyInterval : unhealthyEdgeInterval;
        healthyEdgeInterval = healthyEdgeInterval == null ? probeInterval : healthyEdgeInterval;
    }

    @Override
    public void check(Problems problems) {
        if (connectTimeout().compareTo(timeout) > 0) {
            problems.reject(
                    "connect-timeout",
                    "at most the timeout (" + GoDuration.format(timeout) + "), which bounds the probe");
        }
    }

    /** The connect deadline, defaulted at construction. */
    @Override
    public Duration connectTimeout() {
        return Objects.requireNonNull(connectTimeout, "defaulted");
    }

    /** The initial jitter, defaulted at construction. */
    @Override
    public Duration initialJitter() {
        return Objects.requireNonNull(initialJitter, "defaulted");
    }

    /** The unhealthy interval, defaulted at construction. */
    @Override
    public Duration unhealthyInterval() {
        return Objects.requireNonNull(unhealthyInterval, "defaulted");
    }

    /** The unhealthy edge interval, defaulted at construction. */
    @Override
    public Duration unhealthyEdgeInterval() {
        return Objects.requireNonNull(unhealthyEdgeInterval, "defaulted");
    }

    /** The healthy edge interval, defaulted at construction. */
    @Override
    public Duration healthyEdgeInterval() {
        return Objects.requireNonNull(healthyEdgeInterval, "defaulted");
    }

    /** The per-outbound schedule's intervals and jitters. */
    public ProbeIntervals intervals() {
        return new ProbeIntervals(
                probeInterval,
                unhealthyInterval(),
                unhealthyEdgeInterval(),
                healthyEdgeInterval(),
                initialJitter(),
                intervalJitter);
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
        String schedule = this.schedule == Schedule.XRAY
                ? ", enableConcurrency=" + enableConcurrency
                : ", schedule=per-outbound, unhealthyInterval=" + GoDuration.format(unhealthyInterval())
                        + ", unhealthyEdgeInterval=" + GoDuration.format(unhealthyEdgeInterval())
                        + ", healthyEdgeInterval=" + GoDuration.format(healthyEdgeInterval())
                        + ", initialJitter=" + GoDuration.format(initialJitter())
                        + ", intervalJitter=" + GoDuration.format(intervalJitter);
        return "StandardObserverSettings[subjectSelector=" + subjectSelector + ", probeUrl="
                + Redaction.redact(probeUrl)
                + ", probeInterval=" + GoDuration.format(probeInterval) + schedule + ", timeout="
                + GoDuration.format(timeout) + ", connectTimeout=" + GoDuration.format(connectTimeout())
                + ", activeCheck=" + activeCheck() + "]";
    }
}
