package io.observatory.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A capability's section of the configuration, {@code observatory.<key>} (the mesh's, warm restart's): bound and
 * validated by the core's one pipeline ({@link ObservatoryConfigBinder}) at start-up and on every reload, together
 * with the core's settings and every other section, so that a reload applies all of them or none. A capability
 * declares one as a constant and registers it as a Spring bean; it reads its settings with
 * {@link ObservatoryConfig#section}. The record should be annotated {@code
 * @ConfigurationProperties("observatory.<key>")} so that its keys are in the configuration reference.
 *
 * @param <T> the section's settings record, immutable; its {@link Checked} rules are checked while binding
 */
public interface ConfigSection<T> {

    /** The key under {@code observatory}, e.g. {@code mesh}. */
    String key();

    /** The settings record bound at {@code observatory.<key>}; every component has a default. */
    Class<T> type();

    /**
     * The outbounds the section adds to the observation besides {@code observatory.outbounds} (a mesh hub's entry
     * points), by the full name of the property that defines each, e.g.
     * {@code observatory.mesh.hub.servers[0].entry-points[0]}, in configuration order; their tags may be no
     * configured outbound's. None by default.
     */
    default Map<String, Outbound> outbounds(T settings) {
        return Map.of();
    }

    /**
     * Named groups of the observed outbounds that a balancer may be given as one, by name (a mesh hub's routes, as
     * {@code route/<route>} with the entry points of the servers each serves), each with its tags in configuration
     * order. None by default.
     */
    default Map<String, List<String>> groups(T settings) {
        return Map.of();
    }

    /**
     * The observer the section's source defines (an Xray configuration file's {@code observatory} block), as
     * properties relative to {@code observatory}, e.g. {@code standard.probe-url} or
     * {@code burst.subject-selector[0]}: used only when the operator configured no observer, bound after every other
     * property and checked like the operator's own (a block that breaks a rule is not used, and a warning says why).
     * None by default.
     */
    default Map<String, Object> observer(T settings) {
        return Map.of();
    }

    /**
     * The files the section reads besides the configuration (an Xray configuration file): watched with the
     * configuration files, so that a change to one reloads the configuration. None by default.
     */
    default List<Path> files(T settings) {
        return List.of();
    }

    /**
     * Whether the section gives this instance work of its own (a mesh role), so that a configuration without an
     * observer is no mistake. False by default.
     */
    default boolean active(T settings) {
        return false;
    }

    /**
     * The keys of the section that take effect at start-up only, relative to it (e.g. {@code directory}): a reload that
     * changes one applies the rest and says so. None by default.
     */
    default List<String> startUpOnly() {
        return List.of();
    }

    /** Settings that work but are probably not what was meant, one line each naming the property. None by default. */
    default List<String> warnings(T settings) {
        return List.of();
    }
}
