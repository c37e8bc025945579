package io.observatory.config;

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
    }

    /** {@code observatory.burst}: the burst observer (Xray "burstObservatory"). */
    public static class BurstProperties {

        /** Tag prefixes choosing the outbounds to observe. Default: empty, and then nothing is probed (as in Xray). */
        private List<String> subjectSelector = new ArrayList<>();

        /** Sampling schedule and probe settings. */
        private PingConfigProperties pingConfig = new PingConfigProperties();

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
}
