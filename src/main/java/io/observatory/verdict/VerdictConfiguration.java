package io.observatory.verdict;

import io.observatory.config.ObservatoryConfig;
import io.observatory.time.Scheduler;
import io.observatory.status.ObservationStore;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** Provides the {@link VerdictKeeper}, writing on the writer and following reloads. */
@Configuration(proxyBeanMethods = false)
public class VerdictConfiguration {

    /** Follows reloads first, so that verdicts learn of a reload before the observer. */
    @Bean
    @Order(1)
    VerdictKeeper verdictKeeper(ObservatoryConfig config, Scheduler writer, Clock clock, ObservationStore store) {
        return new VerdictKeeper(config, writer, clock, store);
    }
}
