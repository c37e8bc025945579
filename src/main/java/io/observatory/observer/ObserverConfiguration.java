package io.observatory.observer;

import io.observatory.config.ObservatoryConfig;
import io.observatory.probe.Prober;
import io.observatory.status.ObservationStore;
import java.time.Clock;
import java.util.Random;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Creates the one active observer chosen by configuration: standard, burst, or none (validation has already rejected
 * both being set).
 */
@Configuration(proxyBeanMethods = false)
public class ObserverConfiguration {

    @Bean(destroyMethod = "close")
    ExecutorObserverScheduler observerScheduler() {
        return new ExecutorObserverScheduler("observer-writer");
    }

    @Bean
    Observer observer(
            ObservatoryConfig config,
            Prober prober,
            ExecutorObserverScheduler scheduler,
            Clock clock,
            ObservationStore store) {
        if (config.standard().isPresent()) {
            return new StandardObserver(config.standard().get(), config::outbounds, prober, scheduler, clock, store);
        }
        if (config.burst().isPresent()) {
            return new BurstObserver(config.burst().get(), config::outbounds, prober, scheduler, new Random(), store);
        }
        return new IdleObserver();
    }

    @Bean
    ObserverLifecycle observerLifecycle(Observer observer, ServingStatus servingStatus) {
        return new ObserverLifecycle(observer, servingStatus);
    }
}
