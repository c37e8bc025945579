package io.observatory.api.auth;

import io.observatory.config.ObservatoryConfig;
import io.observatory.reload.Reconfigurable;
import io.observatory.reload.ReloadStage;
import io.observatory.time.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.grpc.server.DefaultGrpcServerFactory;

/**
 * The {@link ApiGuard} every gRPC service is bound through, built from {@code observatory.api.auth} and following
 * reloads, and the filter that refuses to serve a service it does not guard.
 */
@Configuration(proxyBeanMethods = false)
public class ApiAuthConfiguration {

    /** Spring gRPC's switch for verifying client certificates against the SSL bundle's trust store. */
    static final String SSL_SECURE_PROPERTY = "spring.grpc.server.ssl.secure";

    private static final Logger log = LoggerFactory.getLogger(ApiAuthConfiguration.class);

    @Bean
    ApiGuard apiGuard(
            ObservatoryConfig config,
            Ticker ticker,
            Environment environment,
            ObjectProvider<ForeignPrincipals> foreign) {
        if (clientCertificatesAsked(environment) && !clientCertificatesTrusted(environment)) {
            log.warn(
                    "{}=false: client certificates are not verified, so they authorize no API call;"
                            + " only the bearer token does",
                    SSL_SECURE_PROPERTY);
        }
        ApiGuard guard = new ApiGuard(
                config.api().auth(),
                settings -> ApiToken.of(settings.token(), System::getenv, ticker),
                clientCertificatesTrusted(environment),
                foreign.orderedStream().toList());
        log.info("{}", guard.describe());
        return guard;
    }

    /**
     * Stops the start-up at a service the guard does not guard, naming it: every gRPC server factory checks each
     * service as it is added.
     *
     * @throws IllegalStateException for a server factory that cannot check its services
     */
    @Bean
    GrpcServerFactoryCustomizer unguardedServices(ApiGuard guard) {
        return factory -> {
            if (!(factory instanceof DefaultGrpcServerFactory<?> checked)) {
                throw new IllegalStateException(
                        "gRPC server factory " + factory.getClass().getName()
                                + " cannot check that its services are guarded (expected: a DefaultGrpcServerFactory)");
            }
            checked.setServiceFilter(new UnguardedServices(guard));
        };
    }

    /**
     * Whether the gRPC server asks for client certificates and verifies them: an SSL bundle, SSL enabled,
     * {@code client-auth} not {@code none} and {@value #SSL_SECURE_PROPERTY} not false. Only then is a client
     * certificate a credential.
     */
    public static boolean clientCertificatesTrusted(Environment environment) {
        return clientCertificatesAsked(environment)
                && environment.getProperty(SSL_SECURE_PROPERTY, Boolean.class, true);
    }

    private static boolean clientCertificatesAsked(Environment environment) {
        return environment.getProperty("spring.grpc.server.ssl.bundle") != null
                && environment.getProperty("spring.grpc.server.ssl.enabled", Boolean.class, true)
                && !"none".equalsIgnoreCase(environment.getProperty("spring.grpc.server.ssl.client-auth", "none"));
    }

    /** Follows reloads after the verdicts and the observer: the new settings apply from the next call. */
    @Bean
    Reconfigurable apiAuthReconfiguration(ApiGuard guard) {
        return Reconfigurable.at(
                ReloadStage.ACCESS, next -> guard.reconfigure(next.api().auth()));
    }
}
