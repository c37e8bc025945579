package io.observatory.time;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Provides the wall clock and the monotonic ticker; tests replace them to control time. */
@Configuration(proxyBeanMethods = false)
public class TimeConfiguration {

    /** UTC wall clock for timestamps. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Monotonic ticker for RTTs and ages. */
    @Bean
    Ticker ticker() {
        return Ticker.system();
    }
}
