package io.observatory.xds;

import io.observatory.config.Checked;
import io.observatory.config.Problems;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One {@code observatory.xds.clusters[i]}: a cluster of the outbounds its selector chooses, served as the listener,
 * route configuration, cluster and load assignment of that name, so that a proxyless gRPC client dials
 * {@code xds:///<name>} and Envoy names it in its EDS cluster. Each outbound's endpoint is its {@code endpoint}, else its
 * proxy's or server's address (for direct, its probe URL's host and port); an outbound without one is left out.
 *
 * @param name     the cluster's name: letters, digits, {@code . _ - /}, not starting with {@code route/} (a mesh hub's
 *                 routes). Required
 * @param selector tag prefixes choosing its outbounds, as an observer's subject selector. Required, at least one
 * @param weights  the endpoints' load-balancing weights: {@code equal} (none sent, every endpoint alike) or
 *                 {@code rtt} (from each outbound's last round-trip time, the fastest 100, a twice slower one 50, in
 *                 steps of 10 so that jitter sends nothing). Default: equal
 */
public record XdsClusterSettings(
        @NotBlank(message = "a non-blank cluster name")
        @Pattern(regexp = "[A-Za-z0-9._/-]*", message = "a name of letters, digits, '.', '_', '-' and '/'")
        @Nullable
        String name,

        @DefaultValue List<String> selector,
        @DefaultValue("equal") Weights weights)
        implements Checked {

    /** How endpoints are weighted. */
    public enum Weights {
        /** No weight: every endpoint alike. */
        EQUAL,
        /** From the last round-trip time, the fastest 100. */
        RTT
    }

    public XdsClusterSettings {
        selector = List.copyOf(selector);
    }

    @Override
    public void check(Problems problems) {
        if (selector.isEmpty()) {
            problems.reject("selector", "none", "at least one tag prefix (\"\" selects every outbound)");
        }
        if (name != null && name.startsWith(XdsResources.ROUTE_PREFIX)) {
            problems.reject("name", name, "a name not starting with route/, which names a mesh hub's routes");
        }
    }
}
