package io.observatory.config;

import com.google.common.net.InetAddresses;
import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import io.observatory.text.TagList;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The warnings of a valid configuration: settings that work but are probably not what was meant. Each is one line
 * naming the property; durations in Go form.
 */
final class ConfigWarnings {

    /** Probe intervals below this are kept, as Xray keeps them, but outbounds may be probed more than once a second. */
    private static final Duration SHORT_PROBE_INTERVAL = Duration.ofSeconds(1);

    /** Opt-in per-outbound histograms beyond this many outbounds are warned about. */
    private static final int MANY_HISTOGRAMS = 1_000;
    /** Series of one RTT histogram: 12 buckets, +Inf, count, sum and max. */
    private static final int SERIES_PER_HISTOGRAM = 16;

    /** The options of {@code observatory.standard} that only the per-outbound schedule reads. */
    private static final List<String> PER_OUTBOUND_OPTIONS = List.of(
            "initial-jitter",
            "interval-jitter",
            "unhealthy-interval",
            "unhealthy-edge-interval",
            "healthy-edge-interval");

    private ConfigWarnings() {}

    /**
     * The warnings of a configuration that binds: settings that have no effect as given.
     *
     * @param sections the capabilities' sections: one that gives the instance work makes an observer optional
     * @param isSet    whether a property (its full name) was set rather than left at its default
     * @return e.g. {@code observatory.standard.subject-selector[1]: vpn_ matches no outbound tag (tags: proxy_de)}
     */
    static List<String> of(ObservatoryConfig config, List<ConfigSection<?>> sections, Predicate<String> isSet) {
        List<String> warnings = new ArrayList<>();
        StandardObserverSettings standard = config.standard();
        if (standard != null) {
            if (standard.probeInterval().compareTo(SHORT_PROBE_INTERVAL) < 0) {
                warnings.add("observatory.standard.probe-interval: " + GoDuration.format(standard.probeInterval())
                        + " is very short: outbounds may be probed more than once a second");
            }
            unmatched("observatory.standard.subject-selector", standard.subjectSelector(), config, warnings);
            scheduleWarnings(standard, isSet, warnings);
        }
        BurstObserverSettings burst = config.burst();
        if (burst != null) {
            PingConfig ping = burst.pingConfig();
            if (!ping.effectiveInterval().equals(ping.interval())) {
                warnings.add("observatory.burst.ping-config.interval: " + GoDuration.format(ping.interval())
                        + " is too small, " + GoDuration.format(ping.effectiveInterval()) + " is applied");
            }
            unmatched("observatory.burst.subject-selector", burst.subjectSelector(), config, warnings);
        }
        if (standard == null && burst == null && sections.stream().noneMatch(section -> active(section, config))) {
            warnings.add("no observer configured: set observatory.standard or observatory.burst; "
                    + "serving an empty observation");
        }
        histogramWarning(config, warnings);
        sourceFamilyWarnings(config, warnings);
        TransportFailureRateSettings rate = config.passive().transportFailureRate();
        String reactivation = "observatory.passive.transport-failure-rate.reactivation-period";
        if (rate != null
                && isSet.test(reactivation)
                && rate.policy().effectiveReactivationPeriod().compareTo(rate.reactivationPeriod()) > 0) {
            warnings.add(reactivation + ": " + GoDuration.format(rate.reactivationPeriod())
                    + " is shorter than the detection window, "
                    + GoDuration.format(rate.policy().effectiveReactivationPeriod()) + " is applied");
        }
        return warnings;
    }

    private static <T> boolean active(ConfigSection<T> section, ObservatoryConfig config) {
        T settings = config.sectionIfPresent(section);
        return settings != null && section.active(settings);
    }

    /**
     * Outbounds whose first hop — the proxy, or the probe URL's host for a direct outbound — is an address literal of
     * the other family than {@code observatory.probe.source-address}: no probe of theirs can connect. Host names are
     * not resolved here; their probes say so when they fail.
     */
    private static void sourceFamilyWarnings(ObservatoryConfig config, List<String> warnings) {
        InetSocketAddress bound = config.probe().sourceSocketAddress();
        if (bound == null) {
            return;
        }
        InetAddress source = bound.getAddress();
        URI observerUrl = config.observerUrl();
        List<String> unreachable = new ArrayList<>();
        for (Outbound outbound : config.observedOutbounds()) {
            String host = outbound.proxied()
                    ? outbound.address()
                    : observerUrl == null
                            ? null
                            : outbound.probeUrlOr(observerUrl).getHost();
            if (host != null && host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host != null
                    && InetAddresses.isInetAddress(host)
                    && InetAddresses.forString(host).getClass() != source.getClass()) {
                unreachable.add(outbound.tag());
            }
        }
        if (!unreachable.isEmpty()) {
            Collections.sort(unreachable);
            String other = source instanceof Inet4Address ? "IPv6" : "IPv4";
            warnings.add("observatory.probe.source-address: " + source.getHostAddress() + " is an " + family(source)
                    + " address, and " + unreachable.size() + " outbounds reach " + other + " ones, which their"
                    + " probes cannot connect to: " + TagList.of(unreachable));
        }
    }

    private static String family(InetAddress address) {
        return address instanceof Inet4Address ? "IPv4" : "IPv6";
    }

    /** An opt-in histogram selection so wide that the scrape grows by thousands of series. */
    private static void histogramWarning(ObservatoryConfig config, List<String> warnings) {
        SubjectSelector selector = new SubjectSelector(config.metrics().outboundHistograms());
        long selected = config.observedOutbounds().stream()
                .filter(outbound -> selector.selects(outbound.tag()))
                .count();
        if (selected > MANY_HISTOGRAMS) {
            warnings.add("observatory.metrics.outbound-histograms: "
                    + config.metrics().outboundHistograms()
                    + " selects " + selected + " outbounds, " + selected * SERIES_PER_HISTOGRAM
                    + " more series in every scrape (" + SERIES_PER_HISTOGRAM + " each)");
        }
    }

    /** Options that the chosen {@code observatory.standard.schedule} ignores but that were set. */
    private static void scheduleWarnings(
            StandardObserverSettings standard, Predicate<String> isSet, List<String> warnings) {
        boolean perOutbound = standard.schedule() == StandardObserverSettings.Schedule.PER_OUTBOUND;
        List<String> ignored = perOutbound ? List.of("enable-concurrency") : PER_OUTBOUND_OPTIONS;
        for (String option : ignored) {
            String property = "observatory.standard." + option;
            if (isSet.test(property)) {
                warnings.add(property + ": has no effect with observatory.standard.schedule "
                        + (perOutbound
                                ? "per-outbound (every outbound has its own probe session)"
                                : "xray (it applies to schedule per-outbound)"));
            }
        }
    }

    private static void unmatched(
            String property, List<String> prefixes, ObservatoryConfig config, List<String> warnings) {
        List<Outbound> outbounds = config.observedOutbounds();
        String tags = outbounds.isEmpty()
                ? "no outbounds are configured"
                : outbounds.stream().map(Outbound::tag).collect(Collectors.joining(", ", "tags: ", ""));
        for (int i = 0; i < prefixes.size(); i++) {
            String prefix = prefixes.get(i);
            if (outbounds.stream().noneMatch(outbound -> outbound.tag().startsWith(prefix))) {
                warnings.add(property + "[" + i + "]: " + InvalidValueException.printable(prefix)
                        + " matches no outbound tag (" + tags + ")");
            }
        }
    }
}
