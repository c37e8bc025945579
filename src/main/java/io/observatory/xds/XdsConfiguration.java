package io.observatory.xds;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.server.DefaultExecutorGroup;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.controlplane.server.serializer.CachedProtoResourcesSerializer;
import io.grpc.BindableService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.observatory.api.auth.ApiGuard;
import io.observatory.api.auth.ServiceAccess;
import io.observatory.config.ConfigSection;
import io.observatory.config.ObservatoryConfig;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.snapshot.ObservationStore;
import io.observatory.time.ExecutorScheduler;
import io.observatory.time.Ticker;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * xDS ({@code observatory.xds}): the section, always bound; the snapshot cache, its publisher on the
 * {@code xds-snapshot} thread and the discovery services on the gRPC port, when {@code enabled}.
 */
@Configuration(proxyBeanMethods = false)
public class XdsConfiguration {

    /** {@code observatory.xds}, bound with the rest of the configuration whether xDS is on or off. */
    @Bean
    static ConfigSection<XdsSettings> xdsConfigSection() {
        return XdsSettings.SECTION;
    }

    /** The cache, the publisher and the services, when {@code observatory.xds.enabled}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "observatory.xds", name = "enabled", havingValue = "true")
    static class Enabled {

        @Bean
        SimpleCache<String> xdsCache() {
            return new SimpleCache<>(node -> XdsPublisher.GROUP);
        }

        /** Where snapshots are built and set, and clients' watches answered: never the writer. */
        @Bean(destroyMethod = "close")
        ExecutorScheduler xdsSnapshotThread(Ticker ticker) {
            return new ExecutorScheduler("xds-snapshot", ticker);
        }

        @Bean
        XdsStreams xdsStreams() {
            return new XdsStreams();
        }

        @Bean
        XdsPublisher xdsPublisher(
                SimpleCache<String> xdsCache,
                @Qualifier("xdsSnapshotThread") ExecutorScheduler thread,
                ObservatoryConfig config,
                MeterRegistry meters) {
            Timer builds = Timer.builder("observatory_xds_snapshot_build")
                    .description("Time to rebuild the xDS resources a change touched, set the snapshot and answer"
                            + " the clients' open watches")
                    .register(meters);
            return new XdsPublisher(xdsCache, thread, config, nanos -> builds.record(nanos, TimeUnit.NANOSECONDS));
        }

        @Bean
        Reconfigurable xdsReconfiguration(XdsPublisher publisher) {
            return Reconfigurable.at(ReloadStage.BALANCERS, publisher::reconfigure);
        }

        /**
         * The discovery server. Each resource is packed once per snapshot for every client
         * ({@link CachedProtoResourcesSerializer}): a 10,000-endpoint load assignment is about 300 KB, which 100
         * clients would otherwise each serialize anew.
         */
        @Bean
        V3DiscoveryServer xdsServer(SimpleCache<String> xdsCache, XdsStreams streams) {
            return new V3DiscoveryServer(
                    List.of(streams),
                    new SubsetWatcher(xdsCache),
                    new DefaultExecutorGroup(),
                    new CachedProtoResourcesSerializer());
        }

        @Bean
        BindableService xdsAggregatedService(ApiGuard guard, V3DiscoveryServer server) {
            return readsOnly(guard, server.getAggregatedDiscoveryServiceImpl());
        }

        @Bean
        BindableService xdsClusterService(ApiGuard guard, V3DiscoveryServer server) {
            return readsOnly(guard, server.getClusterDiscoveryServiceImpl());
        }

        @Bean
        BindableService xdsEndpointService(ApiGuard guard, V3DiscoveryServer server) {
            return readsOnly(guard, server.getEndpointDiscoveryServiceImpl());
        }

        @Bean
        BindableService xdsListenerService(ApiGuard guard, V3DiscoveryServer server) {
            return readsOnly(guard, server.getListenerDiscoveryServiceImpl());
        }

        @Bean
        BindableService xdsRouteService(ApiGuard guard, V3DiscoveryServer server) {
            return readsOnly(guard, server.getRouteDiscoveryServiceImpl());
        }

        /** Every method of {@code service} a read: open unless the API requires a credential for reads. */
        private static BindableService readsOnly(ApiGuard guard, BindableService service) {
            return guard.guard(
                    service, ServiceAccess.readsOnly(service.bindService().getServiceDescriptor()));
        }

        /** Starts following the verdicts with the rest of the service; stops first. */
        @Bean
        SmartLifecycle xdsLifecycle(XdsPublisher publisher, ObservationStore store) {
            return new SmartLifecycle() {
                private volatile @Nullable Runnable unwatch;

                @Override
                public void start() {
                    unwatch = publisher.follow(store);
                }

                @Override
                public void stop() {
                    Runnable cancel = unwatch;
                    unwatch = null;
                    if (cancel != null) {
                        cancel.run();
                    }
                }

                @Override
                public boolean isRunning() {
                    return unwatch != null;
                }
            };
        }

        /**
         * {@code observatory_xds_streams}, {@code observatory_xds_rejected_total}, {@code observatory_xds_snapshots} and
         * the build timer
         * {@code observatory_xds_snapshot_build}: one series each.
         */
        @Bean
        MeterBinder xdsMeters(XdsStreams streams, XdsPublisher publisher) {
            return registry -> {
                Gauge.builder("observatory_xds_streams", streams, XdsStreams::open)
                        .description("Open xDS streams (ADS and the per-type services, state of the world and delta)")
                        .register(registry);
                FunctionCounter.builder("observatory_xds_rejected", streams, XdsStreams::rejected)
                        .description("Answers xDS clients rejected (NACKs): they keep their previous resources")
                        .register(registry);
                Gauge.builder("observatory_xds_snapshots", publisher, XdsPublisher::snapshots)
                        .description("xDS snapshots set since the start: one per change a client sees")
                        .register(registry);
            };
        }
    }
}
