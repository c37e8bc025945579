package io.observatory.observer;

import io.observatory.config.ObservatoryConfig;
import io.observatory.time.Scheduler;
import io.observatory.probe.Prober;
import io.observatory.status.ObservationStore;
import java.time.Clock;
import java.util.Random;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * Creates the runtime that owns the one active observer chosen by configuration: standard, burst, or none (validation
 * has already rejected both being set).
 */
@Configuration(proxyBeanMethods = false)
public class ObserverConfiguration {

    /** Follows reloads after the verdicts. */
    @Bean
    @Order(2)
    ObserverRuntime observerRuntime(
            ObservatoryConfig config,
            Prober prober,
            Scheduler scheduler,
            Clock clock,
            ObservationStore store) {
        return new ObserverRuntime(config, prober, scheduler, clock, new Random(), store);
    }

    @Bean
    ObserverLifecycle observerLifecycle(ObserverRuntime runtime, ServingStatus servingStatus) {
        return new ObserverLifecycle(runtime, servingStatus);
    }
}
