package io.observatory.snapshot;

import io.observatory.config.ObservatoryConfig;
import io.observatory.time.Scheduler;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Provides the {@link ObservationUpdater} on the writer and the {@link ObservationStore} it publishes to. */
@Configuration(proxyBeanMethods = false)
public class SnapshotConfiguration {

    /** Follows reloads first, so that verdicts learn of a reload before the observer. */
    @Bean
    ObservationUpdater observationUpdater(ObservatoryConfig config, Scheduler writer, Clock clock) {
        return new ObservationUpdater(config, writer, clock);
    }

    /** The one snapshot every reader reads. */
    @Bean
    ObservationStore observationStore(ObservationUpdater updater) {
        return updater.store();
    }
}
