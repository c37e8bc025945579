package io.observatory.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * This instance's whole configuration, one immutable value per start-up or reload: the core's settings
 * ({@link CoreSettings}, whose parts it hands out directly) and each capability's section, bound and validated
 * together by {@link ObservatoryConfigBinder}. Costs the settings and one reference per section.
 */
public final class ObservatoryConfig {

    private final CoreSettings core;
    private final Map<String, Object> sections;
    private final List<Outbound> observedOutbounds;
    private final Map<String, List<String>> groups;

    /**
     * @param core     the core's settings
     * @param sections each section's settings by key, in registration order
     * @param added    the outbounds the sections add to the observation, in section and configuration order
     * @param groups   the named groups of observed outbounds the sections define
     */
    ObservatoryConfig(
            CoreSettings core, Map<String, Object> sections, List<Outbound> added, Map<String, List<String>> groups) {
        this.core = Objects.requireNonNull(core, "core");
        this.sections = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sections));
        List<Outbound> all = new ArrayList<>(core.outbounds().size() + added.size());
        all.addAll(core.outbounds());
        all.addAll(added);
        this.observedOutbounds = List.copyOf(all);
        Map<String, List<String>> copied = new LinkedHashMap<>();
        groups.forEach((name, tags) -> copied.put(name, List.copyOf(tags)));
        this.groups = java.util.Collections.unmodifiableMap(copied);
    }

    /** A configuration of the core's settings alone, without any capability section. */
    public static ObservatoryConfig of(CoreSettings core) {
        return new ObservatoryConfig(core, Map.of(), List.of(), Map.of());
    }

    /** The core's settings. */
    public CoreSettings core() {
        return core;
    }

    /**
     * The settings of a capability's section.
     *
     * @throws IllegalArgumentException when the section was not bound with this configuration (not registered)
     */
    public <T> T section(ConfigSection<T> section) {
        Object settings = sections.get(section.key());
        if (settings == null) {
            throw new IllegalArgumentException(
                    "section observatory." + section.key() + " is not registered (known: " + sections.keySet() + ")");
        }
        return section.type().cast(settings);
    }

    /** The settings of a capability's section, or {@code null} when it was not bound with this configuration. */
    public <T> @Nullable T sectionIfPresent(ConfigSection<T> section) {
        Object settings = sections.get(section.key());
        return settings == null ? null : section.type().cast(settings);
    }

    /**
     * Every outbound this instance observes and serves: the configured ones, then the ones the capabilities' sections
     * add (on a mesh hub, each entry point as the outbound {@code <server>/<entry>}).
     */
    public List<Outbound> observedOutbounds() {
        return observedOutbounds;
    }

    /**
     * The named groups of observed outbounds a balancer may be given as one (on a mesh hub, each route as
     * {@code route/<route>}: the entry points of the servers it serves), in section and configuration order; tags in
     * configuration order.
     */
    public Map<String, List<String>> outboundGroups() {
        return groups;
    }

    /**
     * The observer's probe URL, which outbounds without their own probe: {@code standard.probe-url} or
     * {@code burst.ping-config.destination}; {@code null} without an observer.
     */
    public @Nullable URI observerUrl() {
        StandardObserverSettings standard = core.standard();
        if (standard != null) {
            return standard.probeUri();
        }
        BurstObserverSettings burst = core.burst();
        return burst != null ? burst.pingConfig().destinationUri() : null;
    }

    /** {@code observatory.outbounds}. */
    public List<Outbound> outbounds() {
        return core.outbounds();
    }

    /** {@code observatory.standard}, or {@code null}. */
    public @Nullable StandardObserverSettings standard() {
        return core.standard();
    }

    /** {@code observatory.burst}, or {@code null}. */
    public @Nullable BurstObserverSettings burst() {
        return core.burst();
    }

    /** {@code observatory.probe}. */
    public ProbeSettings probe() {
        return core.probe();
    }

    /** {@code observatory.reload}. */
    public ReloadSettings reload() {
        return core.reload();
    }

    /** {@code observatory.passive}. */
    public PassiveSettings passive() {
        return core.passive();
    }

    /** {@code observatory.availability}. */
    public AvailabilitySettings availability() {
        return core.availability();
    }

    /** {@code observatory.api}. */
    public ApiSettings api() {
        return core.api();
    }

    /** {@code observatory.metrics}. */
    public MetricsSettings metrics() {
        return core.metrics();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ObservatoryConfig that && core.equals(that.core) && sections.equals(that.sections);
    }

    @Override
    public int hashCode() {
        return Objects.hash(core, sections);
    }

    @Override
    public String toString() {
        return "ObservatoryConfig[" + core + ", sections=" + sections + "]";
    }
}
