package io.observatory.state;

import io.observatory.config.ObservatoryConfig;
import io.observatory.mesh.MeshHub;
import io.observatory.observer.ObserverRuntime;
import io.observatory.time.Scheduler;
import io.observatory.verdict.ObservationUpdater;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** Warm restart, when {@code observatory.state.directory} is set (off by default). */
@Configuration(proxyBeanMethods = false)
public class StateConfiguration {

    /** Follows reloads last: it only needs the configuration in force for its next write. */
    @Bean
    @Order(7)
    @ConditionalOnExpression("!'${observatory.state.directory:}'.isBlank()")
    WarmRestart warmRestart(ObservatoryConfig config, Scheduler writer, Clock clock, ObserverRuntime runtime,
            MeshHub hub, ObservationUpdater updater) {
        return new WarmRestart(config, writer, clock, runtime, hub, updater);
    }
}
