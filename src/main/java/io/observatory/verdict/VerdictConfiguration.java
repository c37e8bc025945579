package io.observatory.verdict;

import io.observatory.config.ObservatoryConfig;
import io.observatory.observer.ExecutorObserverScheduler;
import io.observatory.observer.ObserverRuntime;
import io.observatory.status.ObservationStore;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Provides the {@link VerdictKeeper}, writing on the observers' writer thread and following reloads. */
@Configuration(proxyBeanMethods = false)
public class VerdictConfiguration {

    @Bean
    VerdictKeeper verdictKeeper(ObservatoryConfig config, ExecutorObserverScheduler scheduler, Clock clock,
            ObservationStore store, ObserverRuntime runtime) {
        VerdictKeeper keeper = new VerdictKeeper(config, scheduler, clock, store);
        runtime.addListener(keeper::apply);
        return keeper;
    }
}
