package io.observatory.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.observatory.config.HostPort;
import io.observatory.config.ObservatoryConfig;
import io.observatory.config.Outbound;
import io.observatory.testing.Configs;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad xDS settings and endpoints stop the start-up with one line; good ones say where traffic goes. */
class XdsSettingsTest {

    private static final String OUTBOUND = "outbounds[0].tag=a";
    private static final String DIRECT = "outbounds[0].protocol=direct";

    @Test
    void bindWhenTwoClustersShareANameThenOneLineNamingTheFirst() {
        assertThat(Configs.rejection(
                        "xds.clusters[0].name=api",
                        "xds.clusters[0].selector[0]=a",
                        "xds.clusters[1].name=api",
                        "xds.clusters[1].selector[0]=b"))
                .isEqualTo("observatory.xds.clusters[1].name: api (expected: a unique name;"
                        + " observatory.xds.clusters[0].name is the same)");
    }

    @Test
    void bindWhenAClusterHasNoSelectorOrARouteNameThenOneLineEach() {
        assertThat(Configs.rejection("xds.clusters[0].name=api"))
                .isEqualTo("observatory.xds.clusters[0].selector: none (expected: at least one tag prefix (\"\""
                        + " selects every outbound))");
        assertThat(Configs.rejection("xds.clusters[0].name=route/eu", "xds.clusters[0].selector[0]=a"))
                .isEqualTo("observatory.xds.clusters[0].name: route/eu (expected: a name not starting with route/,"
                        + " which names a mesh hub's routes)");
        assertThat(Configs.rejection("xds.clusters[0].name=a b", "xds.clusters[0].selector[0]=a"))
                .isEqualTo("observatory.xds.clusters[0].name: a b (expected: a name of letters, digits, '.', '_', '-'"
                        + " and '/')");
    }

    @Test
    void bindWhenEndpointIsNotHostPortThenOneLine() {
        assertThat(Configs.rejection(OUTBOUND, DIRECT, "outbounds[0].endpoint=10.0.0.5"))
                .isEqualTo("observatory.outbounds[0].endpoint: 10.0.0.5 (expected: " + HostPort.EXPECTED + ")");
    }

    @Test
    void balancerEndpointWhenProtocolsThenTheAddressTrafficGoesTo() {
        URI observer = URI.create("https://probe.example/generate_204");
        assertThat(Outbound.direct("d").balancerEndpoint(observer)).isEqualTo(new HostPort("probe.example", 443));
        assertThat(new Outbound(
                                "d",
                                io.observatory.config.Protocol.DIRECT,
                                null,
                                null,
                                null,
                                null,
                                "http://[::1]:8081/healthz")
                        .balancerEndpoint(observer))
                .isEqualTo(new HostPort("::1", 8081));
        assertThat(new Outbound("s", io.observatory.config.Protocol.SOCKS, "10.0.0.5", 1080, null, null, null)
                        .balancerEndpoint(observer))
                .isEqualTo(new HostPort("10.0.0.5", 1080));
        ObservatoryConfig config = Configs.of(OUTBOUND, DIRECT, "outbounds[0].endpoint=[::1]:9000");
        assertThat(config.outbounds().get(0).balancerEndpoint(observer)).isEqualTo(new HostPort("::1", 9000));
    }

    @Test
    void groupsWhenAHubHasRoutesThenEachRouteWithItsEntryPoints() {
        ObservatoryConfig config = Configs.of(
                "mesh.hub.servers[0].name=s1",
                "mesh.hub.servers[0].route=eu",
                "mesh.hub.servers[0].entry-points[0].name=main",
                "mesh.hub.servers[0].entry-points[0].protocol=socks",
                "mesh.hub.servers[0].entry-points[0].address=10.0.0.1",
                "mesh.hub.servers[0].entry-points[0].port=1080",
                "mesh.hub.servers[1].name=s2",
                "mesh.hub.servers[1].route=eu",
                "mesh.hub.servers[1].entry-points[0].name=main",
                "mesh.hub.servers[1].entry-points[0].protocol=socks",
                "mesh.hub.servers[1].entry-points[0].address=10.0.0.2",
                "mesh.hub.servers[1].entry-points[0].port=1080");
        assertThat(config.outboundGroups()).isEqualTo(Map.of("route/eu", List.of("s1/main", "s2/main")));
    }
}
