package io.observatory.config;

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
