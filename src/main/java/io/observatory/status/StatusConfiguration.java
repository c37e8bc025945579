package io.observatory.status;

import io.observatory.time.Ticker;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Provides the single {@link ObservationStore} shared by the active observer (writer) and the API (readers). */
@Configuration(proxyBeanMethods = false)
public class StatusConfiguration {

    @Bean
    ObservationStore observationStore(Ticker ticker) {
        return new ObservationStore(ticker);
    }
}
