package io.observatory.observer;

import io.observatory.config.ObservatoryConfig;
import io.observatory.probe.Prober;
import io.observatory.snapshot.ObservationUpdater;
import io.observatory.time.Scheduler;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * Creates the runtime that owns the one active observer chosen by configuration: standard, burst, or none (validation
 * has already rejected both being set); its statuses go to the {@link ObservationUpdater} on the writer.
 */
@Configuration(proxyBeanMethods = false)
public class ObserverConfiguration {

    /** Follows reloads after the verdicts. */
    @Bean
    ObserverRuntime observerRuntime(
            ObservatoryConfig config,
            Prober prober,
            Scheduler writer,
            Clock clock,
            ProbeRecorder recorder,
            ObservationUpdater updater) {
        return new ObserverRuntime(config, prober, writer, clock, new Random(), recorder, updater);
    }

    /**
     * Starts the observer after the gRPC server, on which it depends: Spring starts a lifecycle's dependencies
     * first and stops them last, so a port that cannot be bound ends start-up before the first probe, and probes stop
     * before the server does.
     */
    @Bean
    ObserverLifecycle observerLifecycle(ObserverRuntime runtime, List<GrpcServerLifecycle> grpcServers) {
        return new ObserverLifecycle(runtime);
    }
}
