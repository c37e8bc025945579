package io.observatory.mesh.api;

import io.grpc.BindableService;
import io.observatory.api.auth.ApiAuthConfiguration;
import io.observatory.api.auth.ApiGuard;
import io.observatory.api.auth.ApiToken;
import io.observatory.api.auth.ForeignPrincipals;
import io.observatory.api.auth.ServiceAccess;
import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.api.v1.MeshServiceGrpc;
import io.observatory.mesh.config.HubSettings;
import io.observatory.mesh.config.MeshSettings;
import io.observatory.mesh.hub.MeshHub;
import io.observatory.mesh.protocol.HubLinks;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.time.Ticker;
import java.time.Clock;
import java.util.Objects;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The mesh's gRPC side: its two services (the reads, and the witnesses' calls with their authentication), and the
 * link a witness reaches its hubs by.
 */
@Configuration(proxyBeanMethods = false)
public class MeshApiConfiguration {

    /** {@code MeshService}: its three methods are reads, guarded as the v1 API's are. */
    @Bean
    BindableService meshService(ApiGuard guard, MeshHub hub, MeshWatchers watchers) {
        return guard.guard(
                new MeshV1Service(hub, watchers),
                ServiceAccess.reads(
                        MeshServiceGrpc.getGetMeshMethod(),
                        MeshServiceGrpc.getWatchMeshMethod(),
                        MeshServiceGrpc.getListRouteMethod()));
    }

    /** {@code WitnessService}: every method needs a witness's credential, which the API's does not replace. */
    @Bean
    BindableService witnessService(ApiGuard guard, MeshHub hub, Clock clock, WitnessAuthInterceptor witnesses) {
        return guard.guardedBy(new WitnessV1Service(hub, clock), witnesses);
    }

    /** A witness's client certificate lets it report to its hub, never write to the v1 API. */
    @Bean
    ForeignPrincipals meshWitnessPrincipals(WitnessAuthInterceptor witnesses) {
        return witnesses::witnessSubject;
    }

    /** A witness of a hub reports to it in this process; any other witness reports to its hubs over gRPC. */
    @Bean
    HubLinks hubLinks(MeshHub hub, Clock clock) {
        return settings -> settings.role().hub()
                ? new LocalHub(
                        hub,
                        Objects.requireNonNull(
                                Objects.requireNonNull(settings.witness()).name(), "validated"),
                        clock)
                : RemoteHubs.of(settings, System::getenv);
    }

    /** Recognises witnesses by their credential, with the client-certificate rule of the v1 API. */
    @Bean
    WitnessAuthInterceptor witnessAuthInterceptor(ObservatoryConfig config, Ticker ticker, Environment environment) {
        return new WitnessAuthInterceptor(
                config.section(MeshSettings.SECTION),
                settings -> WitnessAuthInterceptor.credentials(
                        settings,
                        witness -> ApiToken.of(
                                witness.token(witnessProperty(settings, witness.name())), System::getenv, ticker)),
                ApiAuthConfiguration.clientCertificatesTrusted(environment));
    }

    @Bean
    Reconfigurable witnessAuthReconfiguration(WitnessAuthInterceptor interceptor) {
        return Reconfigurable.at(
                ReloadStage.ACCESS, next -> interceptor.reconfigure(next.section(MeshSettings.SECTION)));
    }

    private static String witnessProperty(MeshSettings settings, String witness) {
        HubSettings hub = settings.hub();
        for (int i = 0; hub != null && i < hub.witnesses().size(); i++) {
            if (hub.witnesses().get(i).name().equals(witness)) {
                return HubSettings.witnessProperty(i);
            }
        }
        return HubSettings.witnessProperty(-1);
    }
}
