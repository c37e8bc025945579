package io.observatory.api.auth;

import io.observatory.config.ObservatoryConfig;
import io.observatory.reload.Reconfigurable;
import io.observatory.time.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.grpc.server.GlobalServerInterceptor;

/**
 * Registers the {@link ApiAuthInterceptor} with Spring gRPC as a global server interceptor (it wraps every service
 * and lets all but the v1 API pass), built from {@code observatory.api.auth} and following reloads.
 */
@Configuration(proxyBeanMethods = false)
public class ApiAuthConfiguration {

    /** Spring gRPC's switch for verifying client certificates against the SSL bundle's trust store. */
    static final String SSL_SECURE_PROPERTY = "spring.grpc.server.ssl.secure";

    private static final Logger log = LoggerFactory.getLogger(ApiAuthConfiguration.class);

    @Bean
    @GlobalServerInterceptor
    ApiAuthInterceptor apiAuthInterceptor(
            ObservatoryConfig config, Ticker ticker, Environment environment, WitnessAuthInterceptor witnesses) {
        if (clientCertificatesAsked(environment) && !clientCertificatesTrusted(environment)) {
            log.warn(
                    "{}=false: client certificates are not verified, so they do not authorize v1 API calls;"
                            + " only the bearer token does",
                    SSL_SECURE_PROPERTY);
        }
        ApiAuthInterceptor interceptor = new ApiAuthInterceptor(
                config.api().auth(),
                settings -> ApiToken.of(settings.token(), System::getenv, ticker),
                clientCertificatesTrusted(environment),
                witnesses::witnessSubject);
        log.info("{}", interceptor.describe());
        return interceptor;
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
    @Order(3)
    Reconfigurable apiAuthReconfiguration(ApiAuthInterceptor interceptor) {
        return next -> interceptor.reconfigure(next.api().auth());
    }
}
