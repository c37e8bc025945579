package io.observatory.xds;

import io.observatory.config.Checked;
import io.observatory.config.ConfigSection;
import io.observatory.config.Problems;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code observatory.xds}: the verdicts served to Envoy and proxyless gRPC clients over xDS (ADS, state of the world
 * and delta) on the gRPC port, with the v1 API's read access (open, or the API token or a client certificate under
 * {@code observatory.api.auth.require-for-reads}) and the gRPC server's TLS.
 *
 * @param enabled  whether the xDS services are served. Fixed for the process. Default: false
 * @param clusters the clusters served, each the outbounds its selector chooses, in addition to a mesh hub's routes.
 *                 Default: none
 * @param routes   whether a mesh hub also serves each of its routes as the cluster {@code route/<route>}, the entry
 *                 points of the servers it serves. Default: true
 */
@ConfigurationProperties("observatory.xds")
public record XdsSettings(
        @DefaultValue("false") boolean enabled,
        @DefaultValue List<XdsClusterSettings> clusters,
        @DefaultValue("true") boolean routes)
        implements Checked {

    /** The xDS section of the configuration; {@code enabled} takes effect at start-up, the clusters on reload. */
    public static final ConfigSection<XdsSettings> SECTION = new ConfigSection<>() {
        @Override
        public String key() {
            return "xds";
        }

        @Override
        public Class<XdsSettings> type() {
            return XdsSettings.class;
        }

        @Override
        public List<String> startUpOnly() {
            return List.of("enabled");
        }
    };

    public XdsSettings {
        clusters = List.copyOf(clusters);
    }

    @Override
    public void check(Problems problems) {
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < clusters.size(); i++) {
            String name = clusters.get(i).name();
            Integer first = name == null ? null : names.putIfAbsent(name, i);
            if (first != null) {
                problems.reject(
                        "clusters[" + i + "].name",
                        "a unique name; " + problems.name("clusters[" + first + "].name") + " is the same");
            }
        }
    }
}
