package io.observatory.config;

import io.observatory.text.GoDuration;
import io.observatory.text.InvalidValueException;
import io.observatory.config.ObservatoryProperties.BurstProperties;
import io.observatory.config.ObservatoryProperties.PingConfigProperties;
import io.observatory.config.ObservatoryProperties.StandardProperties;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns the bound {@link ObservatoryProperties} into the validated {@link ObservatoryConfig}, applying Xray's
 * defaults and clamps and rejecting what the service could not run with.
 *
 * <p>Defaults and clamps (Xray {@code app/observatory/observer.go} and {@code app/observatory/burst/healthping.go}
 * {@code NewHealthPing}): standard probe-interval 0 → 10s, below 1s kept with a warning; burst interval 0 → 1m,
 * below 10s → 10s with a warning; sampling 0 → 10; timeout 0 → 5s; http-method trimmed; blank URLs → the default
 * (connectivity: off). Where Xray silently replaces a negative value by the default, this rejects it.
 *
 * <p>Limits Xray does not have (see {@link PingConfig}): burst interval at most 24h, sampling at most 1,000, timeout
 * at most 10m; URL ports 1-65535.
 *
 * <p>Health and API keys: see {@link HealthSettingsValidator} (active checks, passive policy, availability) and
 * {@link ApiAuthSettingsValidator} (the API token is checked to be there, never read into the configuration).
 */
public final class ObservatoryConfigValidator {

    private ObservatoryConfigValidator() {
    }

    /**
     * Validates the configuration against the process's environment variables: see
     * {@link #validate(ObservatoryProperties, Consumer, Function)}.
     */
    public static ObservatoryConfig validate(ObservatoryProperties properties, Consumer<String> warnings) {
        return validate(properties, warnings, System::getenv);
    }

    /**
     * Validates the configuration. Pure apart from reading the trusted-certificates and API token files and looking
     * up the API token's environment variable (only whether it is set: its value is not kept).
     *
     * @param properties the bound {@code observatory.*} properties
     * @param warnings receives one line per problem that does not stop the service, e.g. a subject selector that
     *     matches no outbound, a very short probe interval or no observer configured; durations in Go form
     * @param environment looks up an environment variable by name, {@code null} when unset
     * @return the immutable configuration, every default applied
     * @throws InvalidConfigException for the first unusable setting, e.g.
     *     {@code observatory.outbounds[1].port: 70000 (expected: 1-65535)}
     */
    public static ObservatoryConfig validate(ObservatoryProperties properties, Consumer<String> warnings,
            Function<String, String> environment) {
        if (properties.getStandard() != null && properties.getBurst() != null) {
            throw new InvalidConfigException("observatory.burst", "set together with observatory.standard",
                    "only one observer can be active: remove observatory.standard or observatory.burst");
        }
        List<Outbound> outbounds = OutboundValidator.validate(properties.getOutbounds());
        Optional<StandardObserverSettings> standard = Optional.ofNullable(properties.getStandard())
                .map(configured -> standard(configured, warnings));
        Optional<BurstObserverSettings> burst = Optional.ofNullable(properties.getBurst())
                .map(configured -> burst(configured, warnings));
        ProbeSettings probe = ProbeSettingsValidator.validate(properties.getProbe());
        PassiveSettings passive = HealthSettingsValidator.passive(properties.getPassive(), warnings);
        AvailabilitySettings availability = HealthSettingsValidator.availability(properties.getAvailability());
        ApiAuthSettings apiAuth = ApiAuthSettingsValidator.validate(properties.getApi().getAuth(), environment);
        standard.ifPresent(settings -> warnUnmatched("observatory.standard.subject-selector",
                settings.subjectSelector(), outbounds, warnings));
        burst.ifPresent(settings -> warnUnmatched("observatory.burst.subject-selector",
                settings.subjectSelector(), outbounds, warnings));
        if (standard.isEmpty() && burst.isEmpty()) {
            warnings.accept("no observer configured: set observatory.standard or observatory.burst; "
                    + "serving an empty observation");
        }
        return new ObservatoryConfig(outbounds, standard, burst, probe, passive, availability, apiAuth);
    }

    private static StandardObserverSettings standard(StandardProperties standard, Consumer<String> warnings) {
        String prefix = "observatory.standard.";
        Duration probeInterval = ConfigChecks.durationOrDefault(prefix + "probe-interval",
                standard.getProbeInterval(), StandardObserverSettings.DEFAULT_PROBE_INTERVAL);
        if (probeInterval.compareTo(StandardObserverSettings.SHORT_PROBE_INTERVAL) < 0) {
            warnings.accept(prefix + "probe-interval: " + GoDuration.format(probeInterval)
                    + " is very short: outbounds may be probed more than once a second");
        }
        return new StandardObserverSettings(
                subjectSelector(prefix + "subject-selector", standard.getSubjectSelector()),
                ConfigChecks.httpUrl(prefix + "probe-url", standard.getProbeUrl(),
                        StandardObserverSettings.DEFAULT_PROBE_URL),
                probeInterval,
                standard.isEnableConcurrency(),
                HealthSettingsValidator.activeCheck(prefix, standard.getExpectedStatus(),
                        standard.getHealthyThreshold(), standard.getUnhealthyThreshold()));
    }

    private static BurstObserverSettings burst(BurstProperties burst, Consumer<String> warnings) {
        String prefix = "observatory.burst.";
        return new BurstObserverSettings(
                subjectSelector(prefix + "subject-selector", burst.getSubjectSelector()),
                pingConfig(burst.getPingConfig(), warnings),
                HealthSettingsValidator.activeCheck(prefix, burst.getExpectedStatus(), burst.getHealthyThreshold(),
                        burst.getUnhealthyThreshold()),
                HealthSettingsValidator.maxFailureRatio(prefix + "max-failure-ratio", burst.getMaxFailureRatio()));
    }

    private static PingConfig pingConfig(PingConfigProperties ping, Consumer<String> warnings) {
        String prefix = "observatory.burst.ping-config.";
        Duration interval = ConfigChecks.durationOrDefault(prefix + "interval", ping.getInterval(),
                PingConfig.DEFAULT_INTERVAL, PingConfig.MAX_INTERVAL);
        if (interval.compareTo(PingConfig.MIN_INTERVAL) < 0) {
            warnings.accept(prefix + "interval: " + GoDuration.format(interval) + " is too small, "
                    + GoDuration.format(PingConfig.MIN_INTERVAL) + " is applied");
            interval = PingConfig.MIN_INTERVAL;
        }
        if (ping.getSampling() < 0 || ping.getSampling() > PingConfig.MAX_SAMPLING) {
            throw new InvalidConfigException(prefix + "sampling", Integer.toString(ping.getSampling()),
                    "1-" + PingConfig.MAX_SAMPLING + " samples, or 0 for the default " + PingConfig.DEFAULT_SAMPLING);
        }
        String method = ping.getHttpMethod() == null ? "" : ping.getHttpMethod().strip();
        if (!ConfigChecks.isToken(method)) {
            throw new InvalidConfigException(prefix + "http-method", ping.getHttpMethod(),
                    "an HTTP method such as HEAD or GET");
        }
        return new PingConfig(
                ConfigChecks.httpUrl(prefix + "destination", ping.getDestination(), PingConfig.DEFAULT_DESTINATION),
                ConfigChecks.httpUrl(prefix + "connectivity", ping.getConnectivity(), null),
                interval,
                ping.getSampling() == 0 ? PingConfig.DEFAULT_SAMPLING : ping.getSampling(),
                ConfigChecks.durationOrDefault(prefix + "timeout", ping.getTimeout(), PingConfig.DEFAULT_TIMEOUT,
                        PingConfig.MAX_TIMEOUT),
                method);
    }

    private static List<String> subjectSelector(String property, List<String> selectors) {
        for (int i = 0; i < selectors.size(); i++) {
            if (ConfigChecks.isBlank(selectors.get(i))) {
                throw new InvalidConfigException(property + "[" + i + "]", selectors.get(i),
                        "a non-blank tag prefix");
            }
        }
        return selectors;
    }

    private static void warnUnmatched(String property, List<String> selectors, List<Outbound> outbounds,
            Consumer<String> warnings) {
        String tags = outbounds.isEmpty() ? "no outbounds are configured"
                : outbounds.stream().map(Outbound::tag).collect(Collectors.joining(", ", "tags: ", ""));
        for (int i = 0; i < selectors.size(); i++) {
            String selector = selectors.get(i);
            if (outbounds.stream().noneMatch(outbound -> outbound.tag().startsWith(selector))) {
                warnings.accept(property + "[" + i + "]: " + InvalidValueException.printable(selector)
                        + " matches no outbound tag (" + tags + ")");
            }
        }
    }
}
