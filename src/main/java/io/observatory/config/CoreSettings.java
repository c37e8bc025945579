package io.observatory.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The core's part of the configuration, {@code observatory.*} without the capabilities' sections: outbounds, at most
 * one observer, shared probe settings, live reload, passive health, availability, API access and metrics. Bound and
 * validated by {@link ObservatoryConfigBinder} at start-up and on every reload, through the same pipeline; immutable.
 * Read through {@link ObservatoryConfig}, which adds the capabilities' sections.
 *
 * <p>Annotated {@link ConfigurationProperties} for Spring Boot's configuration processor, which turns the
 * components' Javadoc and {@link DefaultValue}s into IDE metadata and the configuration reference; it is not
 * registered as a configuration properties bean.
 *
 * @param outbounds    outbounds to observe, in configuration order; tags unique. Default: none
 * @param standard     the standard observer (Xray "observatory"): probes the selected outbounds one after another, or
 *                     all at once per round. Mutually exclusive with burst. Default: not configured
 * @param burst        the burst observer (Xray "burstObservatory"): samples the selected outbounds at random moments
 *                     and keeps RTT statistics. Mutually exclusive with standard. Default: not configured
 * @param probe        settings shared by every probe, whichever observer runs
 * @param reload       live reload of the external configuration files the service was started with
 * @param passive      passive health: how the call outcomes balancers report through the v1 API are judged
 * @param availability how verdicts become the outbounds a balancer may use
 * @param api          the v1 API: who may call it
 * @param metrics      what the Prometheus endpoint shows beyond the fixed per-outbound series
 */
@ConfigurationProperties(ObservatoryConfigBinder.PREFIX)
public record CoreSettings(
        @DefaultValue List<Outbound> outbounds,
        @Nullable @NestedConfigurationProperty StandardObserverSettings standard,
        @Nullable @NestedConfigurationProperty BurstObserverSettings burst,
        @DefaultValue @NestedConfigurationProperty ProbeSettings probe,
        @DefaultValue @NestedConfigurationProperty ReloadSettings reload,
        @DefaultValue @NestedConfigurationProperty PassiveSettings passive,
        @DefaultValue @NestedConfigurationProperty AvailabilitySettings availability,
        @DefaultValue @NestedConfigurationProperty ApiSettings api,
        @DefaultValue @NestedConfigurationProperty MetricsSettings metrics)
        implements Checked {

    public CoreSettings {
        outbounds = List.copyOf(outbounds);
    }

    @Override
    public void check(Problems problems) {
        if (standard != null && burst != null) {
            problems.reject(
                    "burst",
                    "set together with observatory.standard",
                    "only one observer can be active: remove observatory.standard or observatory.burst");
        }
        Map<String, Integer> indexByTag = new HashMap<>();
        for (int i = 0; i < outbounds.size(); i++) {
            if (outbounds.get(i).protocol() == Protocol.XRAY) {
                problems.reject(
                        "outbounds[" + i + "].protocol",
                        "one of direct, http, socks, tcp, tls (xray is for mesh entry points; the outbounds of an"
                                + " Xray configuration are probed from observatory.core.config-file)");
            }
            String tag = outbounds.get(i).tag();
            Integer first = tag == null ? null : indexByTag.putIfAbsent(tag, i);
            if (first != null) {
                problems.reject(
                        "outbounds[" + i + "].tag",
                        "a unique tag; " + problems.name("outbounds[" + first + "].tag") + " is also " + tag);
            }
        }
    }
}
