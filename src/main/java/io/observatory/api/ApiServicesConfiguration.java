package io.observatory.api;

import io.grpc.BindableService;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.observatory.api.auth.ApiGuard;
import io.observatory.api.auth.ServiceAccess;
import io.observatory.config.ApiAuthSettings;
import io.observatory.snapshot.ObservationStore;
import io.observatory.snapshot.ObservationUpdater;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The core's gRPC services, each bound through the {@link ApiGuard} with its reads declared: the v1 API, Xray's
 * observatory API, grpc.health.v1 and server reflection (Spring gRPC's own health and reflection services are off, so
 * that these guarded ones are the only ones).
 */
@Configuration(proxyBeanMethods = false)
class ApiServicesConfiguration {

    /** {@code observatory.v1.ObservatoryService}: its reads, and {@code ReportOutcomes}, a write. */
    @Bean
    BindableService observatoryV1Service(
            ApiGuard guard,
            ObservationStore store,
            ObservationUpdater updater,
            Clock clock,
            ObservationWatchers watchers) {
        return guard.guard(
                new ObservatoryV1Service(store, updater, clock, watchers)::bindService,
                ServiceAccess.reads(
                        io.observatory.api.v1.ObservatoryServiceGrpc.getGetObservationMethod(),
                        io.observatory.api.v1.ObservatoryServiceGrpc.getWatchObservationMethod(),
                        io.observatory.api.v1.ObservatoryServiceGrpc.getListAvailableMethod(),
                        io.observatory.api.v1.ObservatoryServiceGrpc.getPickMethod()));
    }

    @Bean
    XrayObservatoryService xrayObservatory(ObservationStore store) {
        return new XrayObservatoryService(store);
    }

    /**
     * Xray's {@code xray.core.app.observatory.command.ObservatoryService}: a read, which Xray's own clients make
     * without a token, so {@code observatory.api.auth.xray-reads-open} can keep it open when reads need the credential.
     */
    @Bean
    BindableService xrayObservatoryService(ApiGuard guard, XrayObservatoryService xray) {
        return guard.guard(
                xray::bindService,
                ServiceAccess.reads(io.observatory.api.xray.ObservatoryServiceGrpc.getGetOutboundStatusMethod())
                        .orOpenWhen(ApiAuthSettings::xrayReadsOpen));
    }

    /**
     * {@code grpc.health.v1.Health}, every method a read; the server's own status (the empty service name) is open to
     * anyone whatever the settings, as Kubernetes' gRPC probes and load balancers check it without a credential, while
     * an outbound's status (its tag as the service name) is a read like any other.
     */
    @Bean
    BindableService grpcHealthService(ApiGuard guard, HealthStatusManager health) {
        return guard.guard(
                health.getHealthService(),
                ServiceAccess.readsOnly(HealthGrpc.getServiceDescriptor())
                        .withOpenRequests(
                                HealthGrpc.getCheckMethod(),
                                request -> request.getService().isEmpty())
                        .withOpenRequests(
                                HealthGrpc.getWatchMethod(),
                                request -> request.getService().isEmpty()));
    }

    /** {@code grpc.reflection.v1.ServerReflection}, a read: what grpcurl and other clients discover the API by. */
    @Bean
    BindableService grpcReflectionService(ApiGuard guard) {
        return guard.guard(
                ProtoReflectionServiceV1.newInstance(),
                ServiceAccess.readsOnly(ServerReflectionGrpc.getServiceDescriptor()));
    }
}
