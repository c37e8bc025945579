package io.observatory.xds;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.HealthStatus;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.observatory.config.HostPort;
import io.observatory.health.HealthState;
import java.util.List;

/**
 * The xDS resources of one cluster, as pure functions: what Envoy's EDS and a proxyless gRPC client (gRFC A27) need to
 * reach the cluster's endpoints through a control plane that is Observatory alone.
 *
 * <ul>
 *   <li>a {@link Listener} named as the cluster, an API listener whose HTTP connection manager takes its routes over
 *       ADS and ends with the router filter (what {@code xds:///<name>} resolves);
 *   <li>a {@link RouteConfiguration} of that name sending every request to the cluster;
 *   <li>an EDS {@link Cluster} served over ADS, round robin;
 *   <li>its {@link ClusterLoadAssignment}: one locality of weight 1 (gRPC ignores localities without a weight), each
 *       endpoint with its {@code health_status} and, when weighted, its {@code load_balancing_weight}.
 * </ul>
 */
final class XdsResources {

    /** The prefix of the clusters a mesh hub's routes are served as, e.g. {@code route/eu}. */
    static final String ROUTE_PREFIX = "route/";

    private static final ConfigSource ADS = ConfigSource.newBuilder()
            .setAds(AggregatedConfigSource.getDefaultInstance())
            .setResourceApiVersion(ApiVersion.V3)
            .build();

    private static final Duration CONNECT_TIMEOUT =
            Duration.newBuilder().setSeconds(5).build();

    private XdsResources() {}

    /** Envoy's health status of a verdict: one to one, DEGRADED included. */
    static HealthStatus healthStatus(HealthState verdict) {
        return switch (verdict) {
            case HEALTHY -> HealthStatus.HEALTHY;
            case DEGRADED -> HealthStatus.DEGRADED;
            case UNHEALTHY -> HealthStatus.UNHEALTHY;
            case UNKNOWN -> HealthStatus.UNKNOWN;
        };
    }

    /** The API listener a proxyless gRPC client resolves {@code xds:///<name>} to. */
    static Listener listener(String name) {
        HttpConnectionManager manager = HttpConnectionManager.newBuilder()
                .setRds(Rds.newBuilder().setConfigSource(ADS).setRouteConfigName(name))
                .addHttpFilters(HttpFilter.newBuilder()
                        .setName("envoy.filters.http.router")
                        .setTypedConfig(Any.pack(Router.getDefaultInstance())))
                .build();
        return Listener.newBuilder()
                .setName(name)
                .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(manager)))
                .build();
    }

    /** Every request, whatever its authority and path, to the cluster {@code name}. */
    static RouteConfiguration route(String name) {
        return RouteConfiguration.newBuilder()
                .setName(name)
                .addVirtualHosts(VirtualHost.newBuilder()
                        .setName(name)
                        .addDomains("*")
                        .addRoutes(Route.newBuilder()
                                .setMatch(RouteMatch.newBuilder().setPrefix(""))
                                .setRoute(RouteAction.newBuilder().setCluster(name))))
                .build();
    }

    /** An EDS cluster whose endpoints come over ADS, round robin. */
    static Cluster cluster(String name) {
        return Cluster.newBuilder()
                .setName(name)
                .setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS))
                .setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
                .setConnectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    /** One endpoint; {@code weight} 0 sends none (every endpoint alike). */
    static LbEndpoint endpoint(HostPort address, HealthState verdict, int weight) {
        LbEndpoint.Builder endpoint = LbEndpoint.newBuilder()
                .setEndpoint(Endpoint.newBuilder()
                        .setAddress(Address.newBuilder()
                                .setSocketAddress(SocketAddress.newBuilder()
                                        .setAddress(address.host())
                                        .setPortValue(address.port()))))
                .setHealthStatus(healthStatus(verdict));
        if (weight > 0) {
            endpoint.setLoadBalancingWeight(UInt32Value.of(weight));
        }
        return endpoint.build();
    }

    /** The cluster's endpoints in one locality of weight 1. Costs about 40 bytes per endpoint on the wire. */
    static ClusterLoadAssignment assignment(String name, List<LbEndpoint> endpoints) {
        return ClusterLoadAssignment.newBuilder()
                .setClusterName(name)
                .addEndpoints(LocalityLbEndpoints.newBuilder()
                        .setLoadBalancingWeight(UInt32Value.of(1))
                        .addAllLbEndpoints(endpoints))
                .build();
    }

    /**
     * An endpoint's weight from its round-trip time against the fastest of its cluster: 100 for the fastest, 50 for one
     * twice as slow, rounded to a multiple of 10 and at least 10, so that jitter changes nothing a client sees.
     *
     * @param rttMillis     the endpoint's last round-trip time, positive
     * @param fastestMillis the cluster's fastest, positive
     */
    static int rttWeight(long rttMillis, long fastestMillis) {
        double share = (double) Math.max(1, fastestMillis) / Math.max(1, rttMillis);
        return (int) Math.max(10, Math.min(100, Math.round(share * 10) * 10));
    }
}
