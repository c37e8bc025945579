package io.observatory.api.auth;

import io.observatory.api.v1.ObservatoryServiceGrpc;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Gives the running service a v1 service to guard while the application has none of its own: the canned one. Once the
 * application provides {@code observatory.v1.ObservatoryService}, the condition steps aside and end-to-end tests call
 * the real one (component-scanned beans are registered before this configuration's bean methods are considered).
 */
@TestConfiguration(proxyBeanMethods = false)
public class CannedV1ServiceConfiguration {

    @Bean
    @ConditionalOnMissingBean(ObservatoryServiceGrpc.AsyncService.class)
    CannedObservatoryService cannedObservatoryService() {
        return new CannedObservatoryService();
    }
}
