package io.observatory.config;

import io.observatory.text.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationFormat;
import org.springframework.boot.convert.DurationStyle;

/**
 * The {@code observatory.*} configuration as the user wrote it: a mutable binding target, not yet validated.
 * {@link ObservatoryConfigValidator} turns it into the immutable {@link ObservatoryConfig} the service runs on.
 *
 * <p>Durations use Go syntax as Xray does ({@code 10s}, {@code 1.5s}, {@code 2h45m}, {@code 300ms}) or Spring's
 * forms ({@code 1d}, {@code PT10S}); see {@link GoDuration}. {@link #getStandard()} and {@link #getBurst()} stay
 * {@code null} unless a property under them is set: that is how a configured observer is recognised.
 *
 * <p>Every {@code Duration} field is annotated {@code @DurationFormat(DurationStyle.ISO8601)}: not to demand ISO-8601,
 * but so that a value {@link GoDurationConverter} or {@link GoDurationNumberConverter} rejects (e.g. {@code 1000})
 * fails the binding instead of being read by Spring's fallback conversion as milliseconds.
 *
 * <p>Binding is strict ({@code ignoreUnknownFields = false}): a key that is not declared here, such as a misspelled
 * {@code probe-intreval} or a map where a list or a single value belongs, stops startup instead of being ignored;
 * {@link ObservatoryBindFailureAnalyzer} names it with the keys that are known there. Environment variables and system
 * properties are exempt (Spring Boot does not check them), so an unrelated {@code OBSERVATORY_*} variable does no harm.
 * The declared fields are the keys, in declaration order, for those reports.
 */
@ConfigurationProperties(prefix = "observatory", ignoreUnknownFields = false)
public class ObservatoryProperties {

    /** Outbounds to observe, in configuration order. Tags must be unique. Default: none. */
    private List<OutboundProperties> outbounds = new ArrayList<>();

    /**
     * Standard observer (Xray "observatory"): probes the selected outbounds one after another, or all at once per
     * round. Mutually exclusive with burst. Default: not configured.
     */
    private StandardProperties standard;

    /**
     * Burst observer (Xray "burstObservatory"): samples the selected outbounds at random moments and keeps RTT
     * statistics. Mutually exclusive with standard. Default: not configured.
     */
    private BurstProperties burst;

    /** Settings shared by every probe, whichever observer runs. */
    private ProbeProperties probe = new ProbeProperties();

    /** Live reload of the external configuration files the service was started with. */
    private ReloadProperties reload = new ReloadProperties();

    /** Passive health: how the call outcomes balancers report through the v1 API are judged. */
    private PassiveProperties passive = new PassiveProperties();

    /** Availability: how verdicts become the outbounds a balancer may use. */
    private AvailabilityProperties availability = new AvailabilityProperties();

    /** The v1 API: who may call it. */
    private ApiProperties api = new ApiProperties();

    public List<OutboundProperties> getOutbounds() {
        return outbounds;
    }

    public void setOutbounds(List<OutboundProperties> outbounds) {
        this.outbounds = outbounds;
    }

    public StandardProperties getStandard() {
        return standard;
    }

    public void setStandard(StandardProperties standard) {
        this.standard = standard;
    }

    public BurstProperties getBurst() {
        return burst;
    }

    public void setBurst(BurstProperties burst) {
        this.burst = burst;
    }

    public ProbeProperties getProbe() {
        return probe;
    }

    public void setProbe(ProbeProperties probe) {
        this.probe = probe;
    }

    public ReloadProperties getReload() {
        return reload;
    }

    public void setReload(ReloadProperties reload) {
        this.reload = reload;
    }

    public PassiveProperties getPassive() {
        return passive;
    }

    public void setPassive(PassiveProperties passive) {
        this.passive = passive;
    }

    public AvailabilityProperties getAvailability() {
        return availability;
    }

    public void setAvailability(AvailabilityProperties availability) {
        this.availability = availability;
    }

    public ApiProperties getApi() {
        return api;
    }

    public void setApi(ApiProperties api) {
        this.api = api;
    }

    /**
     * {@code observatory.reload}: watching the files named by {@code spring.config.location} and
     * {@code spring.config.additional-location} and applying their changes without a restart.
     */
    public static class ReloadProperties {

        /** Whether to watch the external configuration files and apply changes live. Default: true. */
        private boolean enabled = true;

        /** How often the files are checked for changes; positive, at most 1h. Default: 5s. */
        @DurationFormat(DurationStyle.ISO8601)
        private Duration interval = ReloadSettings.DEFAULT_INTERVAL;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }
    }

    /** One {@code observatory.outbounds[i]} entry: a named egress path. */
    public static class OutboundProperties {

        /**
         * Unique, non-blank name of the outbound, without control characters (line breaks, tabs); subject selectors
         * match its prefix. Required, no default.
         */
        private String tag;

        /**
         * How the outbound reaches the network: direct, http (CONNECT proxy) or socks (SOCKS5), in any letter case.
         * Required, no default.
         */
        private Protocol protocol;

        /**
         * Proxy host name (ASCII letters, digits, '-', '.', '_') or IP address, IPv6 with or without brackets; no
         * port here. Required for http and socks, must stay unset for direct. No default.
         */
        private String address;

        /** Proxy TCP port number, 1-65535. Required for http and socks, must stay unset for direct. No default. */
        private Integer port;

        /** Proxy user name (HTTP Basic or SOCKS5 RFC 1929). Set together with password, or not at all. No default. */
        private String username;

        /** Proxy password. Set together with username, or not at all; never printed. No default. */
        private String password;

        /**
         * Absolute http(s) URL probed through this outbound instead of the observer's; a port in it must be 1-65535.
         * Default: unset, the observer's URL.
         */
        private String probeUrl;

        public String getTag() {
            return tag;
        }

        public void setTag(String tag) {
            this.tag = tag;
        }

        public Protocol getProtocol() {
            return protocol;
        }

        public void setProtocol(Protocol protocol) {
            this.protocol = protocol;
        }

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = address;
        }

        public Integer getPort() {
            return port;
        }

        public void setPort(Integer port) {
            this.port = port;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public String getProbeUrl() {
            return probeUrl;
        }

        public void setProbeUrl(String probeUrl) {
            this.probeUrl = probeUrl;
        }
    }

    /** {@code observatory.standard}: the standard observer (Xray "observatory"). */
    public static class StandardProperties {

        /** Tag prefixes choosing the outbounds to observe. Default: empty, and then nothing is probed (as in Xray). */
        private List<String> subjectSelector = new ArrayList<>();

        /**
         * Absolute http(s) URL requested with GET through each outbound; a port in it must be 1-65535; blank means
         * the default. Default: https://www.google.com/generate_204.
         */
        private String probeUrl = "https://www.google.com/generate_204";

        /**
         * Pause after each probe (sequential) or after each round (concurrent), a duration such as 10s or 1.5s;
         * 0 means the default. Values below 1s are kept (as in Xray) but logged as a warning. Default: 10s.
         */
        @DurationFormat(DurationStyle.ISO8601)
        private Duration probeInterval = Duration.ofSeconds(10);

        /** Whether to probe all selected outbounds at once each round instead of one after another. Default: false. */
        private boolean enableConcurrency = false;

        /**
         * HTTP statuses that make a probe successful: any, one status (204), an inclusive range (200-299) or a
         * /-separated list of both (200/204/301-399), statuses 100-599; a response with another status is a failed
         * probe. Default: any (as in Xray: every response counts as success).
         */
        private String expectedStatus = "any";

        /**
         * Consecutive successful probes that make an outbound healthy, at least 1; below it the previous state stays
         * (a new outbound stays unknown). Default: 1 (as in Xray: every probe decides).
         */
        private int healthyThreshold = 1;

        /**
         * Consecutive failed probes that make an outbound unhealthy, at least 1; below it the previous state stays.
         * Default: 1 (as in Xray: every probe decides).
         */
        private int unhealthyThreshold = 1;

        public List<String> getSubjectSelector() {
            return subjectSelector;
        }

        public void setSubjectSelector(List<String> subjectSelector) {
            this.subjectSelector = subjectSelector;
        }

        public String getProbeUrl() {
            return probeUrl;
        }

        public void setProbeUrl(String probeUrl) {
            this.probeUrl = probeUrl;
        }

        public Duration getProbeInterval() {
            return probeInterval;
        }

        public void setProbeInterval(Duration probeInterval) {
            this.probeInterval = probeInterval;
        }

        public boolean isEnableConcurrency() {
            return enableConcurrency;
        }

        public void setEnableConcurrency(boolean enableConcurrency) {
            this.enableConcurrency = enableConcurrency;
        }

        public String getExpectedStatus() {
            return expectedStatus;
        }

        public void setExpectedStatus(String expectedStatus) {
            this.expectedStatus = expectedStatus;
        }

        public int getHealthyThreshold() {
            return healthyThreshold;
        }

        public void setHealthyThreshold(int healthyThreshold) {
            this.healthyThreshold = healthyThreshold;
        }

        public int getUnhealthyThreshold() {
            return unhealthyThreshold;
        }

        public void setUnhealthyThreshold(int unhealthyThreshold) {
            this.unhealthyThreshold = unhealthyThreshold;
        }
    }

    /** {@code observatory.burst}: the burst observer (Xray "burstObservatory"). */
    public static class BurstProperties {

        /** Tag prefixes choosing the outbounds to observe. Default: empty, and then nothing is probed (as in Xray). */
        private List<String> subjectSelector = new ArrayList<>();

        /** Sampling schedule and probe settings. */
        private PingConfigProperties pingConfig = new PingConfigProperties();

        /**
         * HTTP statuses that make a sample successful: any, one status (204), an inclusive range (200-299) or a
         * /-separated list of both (200/204/301-399), statuses 100-599; a response with another status is a failed
         * sample. Default: any (as in Xray: every response counts as success).
         */
        private String expectedStatus = "any";

        /**
         * Consecutive evaluations of the sample window that find the outbound alive before it becomes healthy, at
         * least 1; the window is evaluated once per recorded sample or expiry. Below it the previous state stays (a new
         * outbound stays unknown). Default: 1 (as in Xray: every evaluation decides).
         */
        private int healthyThreshold = 1;

        /**
         * Consecutive evaluations of the sample window that find the outbound not alive before it becomes unhealthy,
         * at least 1; the window is evaluated once per recorded sample or expiry. Default: 1 (as in Xray).
         */
        private int unhealthyThreshold = 1;

        /**
         * Share of failed samples among the valid ones (fail / all), 0-1, above which an outbound is not alive even
         * with a successful sample; applies in addition to Xray's rule (at least one valid success). Default: unset,
         * Xray's rule only.
         */
        private Double maxFailureRatio;

        public List<String> getSubjectSelector() {
            return subjectSelector;
        }

        public void setSubjectSelector(List<String> subjectSelector) {
            this.subjectSelector = subjectSelector;
        }

        public PingConfigProperties getPingConfig() {
            return pingConfig;
        }

        public void setPingConfig(PingConfigProperties pingConfig) {
            this.pingConfig = pingConfig;
        }

        public String getExpectedStatus() {
            return expectedStatus;
        }

        public void setExpectedStatus(String expectedStatus) {
            this.expectedStatus = expectedStatus;
        }

        public int getHealthyThreshold() {
            return healthyThreshold;
        }

        public void setHealthyThreshold(int healthyThreshold) {
            this.healthyThreshold = healthyThreshold;
        }

        public int getUnhealthyThreshold() {
            return unhealthyThreshold;
        }

        public void setUnhealthyThreshold(int unhealthyThreshold) {
            this.unhealthyThreshold = unhealthyThreshold;
        }

        public Double getMaxFailureRatio() {
            return maxFailureRatio;
        }

        public void setMaxFailureRatio(Double maxFailureRatio) {
            this.maxFailureRatio = maxFailureRatio;
        }
    }

    /** {@code observatory.burst.ping-config}: Xray's "pingConfig". */
    public static class PingConfigProperties {

        /**
         * Absolute http(s) URL probed through each outbound; a port in it must be 1-65535; blank means the default.
         * Default: https://connectivitycheck.gstatic.com/generate_204.
         */
        private String destination = "https://connectivitycheck.gstatic.com/generate_204";

        /**
         * Absolute http(s) URL probed directly (not through the outbound) after a failed probe; when it fails too,
         * the network is down and the sample is discarded. Default: empty, no connectivity check.
         */
        private String connectivity = "";

        /**
         * Average time between two samples of one outbound, a duration such as 1m; a cycle lasts
         * interval × sampling. 0 means the default; values below 10s are raised to 10s with a warning (as in Xray);
         * at most 24h (a limit Xray does not have). Default: 1m.
         */
        @DurationFormat(DurationStyle.ISO8601)
        private Duration interval = Duration.ofMinutes(1);

        /**
         * Number of samples per outbound per cycle, also how many are kept, 1-1000 (a limit Xray does not have: the
         * result ring and each cycle's schedule are sized from it); 0 means the default. Default: 10.
         */
        private int sampling = 10;

        /**
         * Deadline of one probe, a duration such as 5s, at most 10m (a limit Xray does not have); 0 means the
         * default. Default: 5s.
         */
        @DurationFormat(DurationStyle.ISO8601)
        private Duration timeout = Duration.ofSeconds(5);

        /** HTTP method of the probe, trimmed; with GET the body is read and counted in the RTT. Default: HEAD. */
        private String httpMethod = "HEAD";

        public String getDestination() {
            return destination;
        }

        public void setDestination(String destination) {
            this.destination = destination;
        }

        public String getConnectivity() {
            return connectivity;
        }

        public void setConnectivity(String connectivity) {
            this.connectivity = connectivity;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public int getSampling() {
            return sampling;
        }

        public void setSampling(int sampling) {
            this.sampling = sampling;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public String getHttpMethod() {
            return httpMethod;
        }

        public void setHttpMethod(String httpMethod) {
            this.httpMethod = httpMethod;
        }
    }

    /** {@code observatory.probe}: settings shared by every probe. */
    public static class ProbeProperties {

        /**
         * Maximum number of probes in flight, at least 1; further probes wait for a free slot. Each probe holds one
         * socket, and the JVM raises its soft descriptor limit to the hard limit on Linux. Default: 1024.
         */
        private int maxConcurrent = 1024;

        /**
         * Path of a PEM file of extra CA certificates trusted in addition to the JDK's, for probe URLs served with a
         * private CA; it must hold at least one X.509 certificate. Default: none, the JDK's trust store only.
         */
        private String trustedCertificates;

        /**
         * Request headers sent with every probe, in order. Default: desktop Chrome's top-level navigation headers
         * (User-Agent, Accept, Accept-Language, sec-ch-ua, Sec-Fetch-*, Upgrade-Insecure-Requests). Entries set here
         * are merged into the default, names compared case-insensitively; an empty value removes that header.
         */
        private Map<String, String> headers = new LinkedHashMap<>(ProbeSettings.DEFAULT_HEADERS);

        public int getMaxConcurrent() {
            return maxConcurrent;
        }

        public void setMaxConcurrent(int maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
        }

        public String getTrustedCertificates() {
            return trustedCertificates;
        }

        public void setTrustedCertificates(String trustedCertificates) {
            this.trustedCertificates = trustedCertificates;
        }

        public Map<String, String> getHeaders() {
            return headers;
        }

        public void setHeaders(Map<String, String> headers) {
            this.headers = headers;
        }
    }

    /**
     * {@code observatory.passive}: passive health, judged from the call outcomes balancers report through the v1 API.
     * Keys of the policy that is not selected are rejected; they stay {@code null} here unless set, which is how a
     * set key is recognised.
     */
    public static class PassiveProperties {

        /**
         * The policy: transport-failure-rate (YARP's TransportFailureRate: the share of transport failures over a
         * sliding window) or consecutive-failures (silky: a run of failed calls). Default: transport-failure-rate.
         */
        private String policy = "transport-failure-rate";

        /**
         * consecutive-failures only: consecutive failed calls that make an outbound unhealthy, at least 0; 0 (like 1)
         * means the first failure. Default: 3 (silky's unHealthCeilingTimes).
         */
        private Integer ceiling;

        /**
         * transport-failure-rate only: length of the sliding window of reported calls, counted in 1 s buckets; a
         * whole number of seconds, at least 1s, e.g. 60s or 2m. Default: 60s.
         */
        @DurationFormat(DurationStyle.ISO8601)
        private Duration detectionWindow;

        /**
         * transport-failure-rate only: calls the window must hold before the failure rate is judged, at least 1;
         * with fewer the previous state stays. Default: 10.
         */
        private Integer minimalTotalCount;

        /**
         * transport-failure-rate only: share of transport failures among the window's calls (failed / total) at and
         * above which an outbound is unhealthy; greater than 0, at most 1. Default: 0.3.
         */
        private Double failureRateLimit;

        /**
         * Time after an outbound became unhealthy before its passive state returns to unknown, a positive duration
         * such as 60s. For transport-failure-rate the period applied is never shorter than the detection window: a
         * shorter one is raised to it (with a warning when set). Default: 60s.
         */
        @DurationFormat(DurationStyle.ISO8601)
        private Duration reactivationPeriod;

        public String getPolicy() {
            return policy;
        }

        public void setPolicy(String policy) {
            this.policy = policy;
        }

        public Integer getCeiling() {
            return ceiling;
        }

        public void setCeiling(Integer ceiling) {
            this.ceiling = ceiling;
        }

        public Duration getDetectionWindow() {
            return detectionWindow;
        }

        public void setDetectionWindow(Duration detectionWindow) {
            this.detectionWindow = detectionWindow;
        }

        public Integer getMinimalTotalCount() {
            return minimalTotalCount;
        }

        public void setMinimalTotalCount(Integer minimalTotalCount) {
            this.minimalTotalCount = minimalTotalCount;
        }

        public Double getFailureRateLimit() {
            return failureRateLimit;
        }

        public void setFailureRateLimit(Double failureRateLimit) {
            this.failureRateLimit = failureRateLimit;
        }

        public Duration getReactivationPeriod() {
            return reactivationPeriod;
        }

        public void setReactivationPeriod(Duration reactivationPeriod) {
            this.reactivationPeriod = reactivationPeriod;
        }
    }

    /** {@code observatory.availability}: how verdicts become the outbounds a balancer may use. */
    public static class AvailabilityProperties {

        /**
         * The policy: healthy-or-panic (YARP's HealthyOrPanic: the outbounds not unhealthy, or every outbound when
         * too few are left) or healthy-and-unknown (YARP's HealthyAndUnknown: the outbounds not unhealthy, possibly
         * none). Default: healthy-or-panic.
         */
        private String policy = "healthy-or-panic";

        /**
         * healthy-or-panic only: percentage of the selection, 0-100, that must be usable; below it every outbound
         * is returned (panic). 0 panics only when none is usable (YARP); Envoy's default is 50. Default: 0.
         */
        private Integer panicThreshold;

        public String getPolicy() {
            return policy;
        }

        public void setPolicy(String policy) {
            this.policy = policy;
        }

        public Integer getPanicThreshold() {
            return panicThreshold;
        }

        public void setPanicThreshold(Integer panicThreshold) {
            this.panicThreshold = panicThreshold;
        }
    }

    /** {@code observatory.api}: the v1 API. */
    public static class ApiProperties {

        /** Who may call the v1 API. */
        private ApiAuthProperties auth = new ApiAuthProperties();

        public ApiAuthProperties getAuth() {
            return auth;
        }

        public void setAuth(ApiAuthProperties auth) {
            this.auth = auth;
        }
    }

    /**
     * {@code observatory.api.auth}: the bearer token of the v1 API. Writes need the token or a client certificate
     * the gRPC server's mTLS verified; reads are open unless {@link #isRequireForReads()}. The token itself is never
     * part of the configuration: only where it is kept.
     */
    public static class ApiAuthProperties {

        /**
         * Path of a file holding the bearer token (surrounding whitespace ignored), re-read when it changes; it must
         * exist, be readable and not be empty. At most one of token-file and token-env. Default: none.
         */
        private String tokenFile;

        /**
         * Name of an environment variable holding the bearer token (letters, digits and '_', not starting with a
         * digit); it must be set and not be empty. At most one of token-file and token-env. Default: none.
         */
        private String tokenEnv;

        /** Whether reads need the same credentials as writes. Default: false, reads are open. */
        private boolean requireForReads = false;

        public String getTokenFile() {
            return tokenFile;
        }

        public void setTokenFile(String tokenFile) {
            this.tokenFile = tokenFile;
        }

        public String getTokenEnv() {
            return tokenEnv;
        }

        public void setTokenEnv(String tokenEnv) {
            this.tokenEnv = tokenEnv;
        }

        public boolean isRequireForReads() {
            return requireForReads;
        }

        public void setRequireForReads(boolean requireForReads) {
            this.requireForReads = requireForReads;
        }
    }
}
